package dev.proxypool.server.gateway;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's event loops. A client connection and its upstream connection are both served by one
 * of these loops for their whole life.
 *
 * <p>Transport: the JDK's NIO selector by default; native epoll (accept spread with {@code
 * SO_REUSEPORT}) with the system property {@value #EPOLL} where Netty's native library loads. Not the
 * default while Netty 4.2.18's epoll registration loses a channel whose interest set went empty: it
 * removes the descriptor from the epoll set but keeps it marked as added, so the next change of
 * interest (a read resumed after backpressure, or after a request was routed) fails with {@code
 * epoll_ctl(MOD) ENOENT} and the connection is closed (seen in {@code GatewayStressTest}). The defect is
 * Netty's, not this gateway's use of it: in 4.2.18 {@code EpollIoHandler}'s registration, asked for an
 * empty interest set while in its {@code Added} state, calls {@code epoll_ctl(DEL)} and stays {@code
 * Added}, whichever thread asked and however reads were toggled (the removal for an empty set came
 * with Netty's pull request 16689); the interest set empties, for instance, once the peer half-closed
 * ({@code EPOLLRDHUP} and {@code EPOLLIN} cleared) and no write is pending, so the next pending write
 * fails. {@code EpollMode} is a no-op in 4.2, so there is no edge-triggered way around it.
 */
final class GatewayLoops implements AutoCloseable {

    /** The system property that selects native epoll. */
    static final String EPOLL = "proxypool.gateway.epoll";

    private final EventLoopGroup group;
    private final boolean epoll;
    private final int threads;

    /** @param threads loops to run; 0 or less: one per available core */
    GatewayLoops(int threads) {
        this.threads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        this.epoll = Boolean.getBoolean(EPOLL) && Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(this.threads, new DefaultThreadFactory("gateway-loop", true), io);
    }

    EventLoopGroup group() {
        return group;
    }

    /** True on native epoll (accept spread over the loops with {@code SO_REUSEPORT}). */
    boolean epoll() {
        return epoll;
    }

    int threads() {
        return threads;
    }

    Class<? extends ServerChannel> serverChannel() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends Channel> socketChannel() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
