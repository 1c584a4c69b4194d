package dev.proxypool.server.gateway;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;

/**
 * The gateway's HTTP proxy listener on event loops ({@link GatewayLoops}): accepted connections are
 * served by {@link HttpProxyHandler} on one loop each, their upstream connections on the same loop.
 * With native epoll one server socket per loop is bound with {@code SO_REUSEPORT}, so the kernel
 * spreads accepts over the loops.
 *
 * <p>Limits, as {@link GatewayListener}'s: with {@link GatewayConfig#maxConnections()} above 0 a
 * connection accepted while that many are open is closed at once, so is one whose address holds
 * {@link GatewayConfig#maxConnectionsPerAddress()} open connections; both are counted
 * ({@link GatewayMetrics#connectionClosed}) before the close.
 *
 * <p>Whatever may block (secret hashing for a first login, a destination or proxy name to look up:
 * {@link ExchangeRouting}) runs on a bounded executor beside the loops, and its result goes back to the
 * connection's loop; a failed accept is logged once per streak and retried.
 */
final class EventLoopListener implements AutoCloseable {

    private static final int BACKLOG = 1024;
    private static final System.Logger LOG = System.getLogger(EventLoopListener.class.getName());
    /** Threads for work that may block (started with the listener); queued beyond them up to {@link #OFF_LOOP_QUEUE}. */
    private static final int OFF_LOOP_THREADS = 32;

    private static final int OFF_LOOP_QUEUE = 16_384;

    private final Gateway gateway;
    private final GatewayLoops loops;
    private final List<Channel> servers = new ArrayList<>();
    private final int port;
    /** Shared with a SOCKS5 listener beside this one: one cap on both. */
    private final AtomicInteger open;

    private final AtomicLong refused;
    private final AtomicLong acceptFailures = new AtomicLong();
    /** A failed accept was logged and no accept has succeeded since. */
    private volatile boolean failing;

    private final AtomicLong refusedPerAddress = new AtomicLong();
    /**
     * Connections each client address holds on this listener. The loops only read the map and move
     * the counters by compare-and-set (a bin lock would be a loop blocking on another loop); an
     * address's entry is put in when its first connection arrives and taken out off the loops by a sweep
     * every {@value #SWEEP_SECONDS} s, once its count is back to 0 ({@link #GONE} marks an entry being taken
     * out): no hand-off per closed connection.
     */
    private final ConcurrentHashMap<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();

    private static final int GONE = -1;

    /** How often entries of addresses without connections leave {@link #perAddress}. */
    static final int SWEEP_SECONDS = 10;

    private final HandOff offLoop;
    /** The periodic {@link #sweepPerAddress}. */
    private final ScheduledFuture<?> sweep;
    /** The access log's writer thread, fed from a bounded queue. */
    private final HandOff accessLogWriter;

    private final AtomicLong droppedLogLines;
    private static final int ACCESS_LOG_QUEUE = 65_536;
    /** The {@code listener} tag: {@link ClosedReason#LISTENER_GATEWAY} or {@link ClosedReason#LISTENER_SOCKS}. */
    private final String name;
    /** The HTTP listener this SOCKS5 one shares loops, executor and cap with; null for the HTTP listener. */
    private final EventLoopListener sibling;

    /** TLS on each accepted connection ({@code server.gatewayTls}), or null: plain. */
    private final TlsLayer tls;

    private EventLoopListener(
            Gateway gateway, InetAddress bind, int port, int threads, EventLoopListener sibling, TlsLayer tls)
            throws IOException {
        this.gateway = gateway;
        this.tls = tls;
        this.sibling = sibling;
        this.name = sibling == null ? ClosedReason.LISTENER_GATEWAY : ClosedReason.LISTENER_SOCKS;
        if (sibling == null) {
            this.loops = new GatewayLoops(threads);
            this.offLoop = new HandOff("gateway-route-", OFF_LOOP_THREADS, OFF_LOOP_QUEUE);
            this.accessLogWriter = new HandOff("gateway-access-log-", 1, ACCESS_LOG_QUEUE);
            this.droppedLogLines = new AtomicLong();
            this.open = new AtomicInteger();
            this.refused = new AtomicLong();
        } else {
            this.loops = sibling.loops;
            this.offLoop = sibling.offLoop;
            this.accessLogWriter = sibling.accessLogWriter;
            this.droppedLogLines = sibling.droppedLogLines;
            this.open = sibling.open;
            this.refused = sibling.refused;
        }
        ServerBootstrap b = new ServerBootstrap()
                .group(loops.group())
                .channel(loops.serverChannel())
                .handler(new AcceptFailures())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted(ch);
                    }
                });
        int binds = 1;
        if (loops.epoll()) {
            b.option(EpollChannelOption.SO_REUSEPORT, true);
            binds = loops.threads();
        }
        try {
            Channel first = b.bind(new InetSocketAddress(bind, port))
                    .syncUninterruptibly()
                    .channel();
            servers.add(first);
            int bound = ((InetSocketAddress) first.localAddress()).getPort();
            for (int i = 1; i < binds; i++) {
                servers.add(b.bind(new InetSocketAddress(bind, bound))
                        .syncUninterruptibly()
                        .channel());
            }
            this.port = bound;
            this.sweep = loops.group()
                    .next()
                    .scheduleAtFixedRate(
                            () -> {
                                try {
                                    offLoop.execute(this::sweepPerAddress);
                                } catch (RejectedExecutionException e) {
                                    // full or stopping: the next sweep takes them
                                }
                            },
                            SWEEP_SECONDS,
                            SWEEP_SECONDS,
                            TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            if (sibling == null) {
                loops.close();
                offLoop.shutdownNow();
                accessLogWriter.shutdownNow();
            }
            throw new IOException("cannot bind the gateway listener: " + e.getMessage(), e);
        }
    }

    /**
     * Binds and starts accepting.
     *
     * @param port    0 picks a free port (tests)
     * @param threads event loops; 0: one per core ({@code server.gatewayThreads})
     */
    static EventLoopListener start(Gateway gateway, InetAddress bind, int port, int threads, TlsLayer tls)
            throws IOException {
        return new EventLoopListener(gateway, bind, port, threads, null, tls);
    }

    /**
     * Binds a SOCKS5 listener beside {@code http}: the same gateway, loops, executor and connection cap
     * (counted across both). Stopping it closes its sockets only; stopping {@code http} shuts the
     * gateway down, SOCKS5 connections included.
     */
    static EventLoopListener startSocks(EventLoopListener http, InetAddress bind, int port) throws IOException {
        return new EventLoopListener(http.gateway, bind, port, 0, http, null);
    }

    /** True for the SOCKS5 listener. */
    boolean socks() {
        return sibling != null;
    }

    /** The {@code listener} tag of its metrics. */
    String name() {
        return name;
    }

    /**
     * Sees a failed accept (descriptors exhausted: {@code EMFILE}) before Netty's acceptor, which pauses
     * accepting for a second and then retries: counts it, and logs the first of a streak (a later accept
     * that succeeds ends the streak) so an operator sees why clients wait.
     */
    @ChannelHandler.Sharable
    private final class AcceptFailures extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            acceptFailures.incrementAndGet();
            if (!failing) {
                failing = true;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "gateway accept failed on {0} port {1,number,#}: {2}; retrying (more failures are not logged"
                                + " until an accept succeeds)",
                        name,
                        port,
                        String.valueOf(cause.getMessage()));
            }
            ctx.fireExceptionCaught(cause);
        }
    }

    /** Accepts that failed and were retried. */
    long acceptFailures() {
        return acceptFailures.get();
    }

    private void accepted(SocketChannel ch) {
        failing = false;
        GatewayConfig cfg = gateway.config();
        if (!admitOne(cfg.maxConnections())) {
            refused.incrementAndGet();
            gateway.metrics().connectionClosed(name, ClosedReason.MAX_CONNECTIONS);
            ch.close();
            return;
        }
        InetAddress client = ch.remoteAddress().getAddress();
        if (!admit(client, cfg.maxConnectionsPerAddress())) {
            open.decrementAndGet();
            refusedPerAddress.incrementAndGet();
            gateway.metrics().connectionClosed(name, ClosedReason.PER_ADDRESS_LIMIT);
            ch.close();
            return;
        }
        ch.closeFuture().addListener(f -> {
            open.decrementAndGet();
            release(client);
        });
        long acceptedAt = gateway.ticker().read();
        SSLEngine engine = tls == null ? null : tls.engine();
        if (engine != null) {
            // the handshake is part of the first request: the first-request deadline bounds it, no timeout of its own
            SslHandler ssl = new SslHandler(engine);
            ssl.setHandshakeTimeoutMillis(0);
            ch.pipeline().addLast(ssl);
        }
        ch.pipeline().addLast(new HttpProxyHandler(gateway, this, acceptedAt));
    }

    /**
     * Counts one more open connection unless {@code max} (above 0) are open. A compare-and-set, not a
     * test then an increment: each loop accepts on a socket of its own (SO_REUSEPORT), and two loops
     * testing at once would both pass at the cap and hold one connection over it.
     */
    private boolean admitOne(int max) {
        while (true) {
            int n = open.get();
            if (max > 0 && n >= max) {
                return false;
            }
            if (open.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private boolean admit(InetAddress client, int maxPerAddress) {
        if (maxPerAddress < 1) {
            return false;
        }
        while (true) {
            AtomicInteger held = perAddress.get(client);
            if (held == null) {
                if (perAddress.putIfAbsent(client, new AtomicInteger(1)) == null) {
                    return true;
                }
                continue; // another loop put one in first: count on it
            }
            int n = held.get();
            if (n == GONE) {
                Thread.onSpinWait(); // being taken out by the off-loop sweep: gone in a moment
                continue;
            }
            if (n >= maxPerAddress) {
                return false;
            }
            if (held.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private void release(InetAddress client) {
        AtomicInteger held = perAddress.get(client);
        if (held != null) {
            held.decrementAndGet(); // an entry back at 0 waits for the sweep, or is counted on again
        }
    }

    /** Takes the entries of addresses without connections out of {@link #perAddress} (off the loops). */
    private void sweepPerAddress() {
        perAddress.forEach((client, held) -> {
            if (held.compareAndSet(0, GONE)) {
                perAddress.remove(client, held);
            }
        });
    }

    GatewayLoops loops() {
        return loops;
    }

    /**
     * Hands an access log line to the writer thread (the logging handlers' I/O stays off the loops); a
     * line is dropped, and counted, while {@value #ACCESS_LOG_QUEUE} wait.
     */
    void accessLog(String line) {
        if (line == null) {
            return;
        }
        try {
            accessLogWriter.execute(() -> AccessLog.emit(line));
        } catch (RejectedExecutionException e) {
            droppedLogLines.incrementAndGet();
        }
    }

    /** Access log lines dropped because the writer fell behind. */
    long droppedAccessLogLines() {
        return droppedLogLines.get();
    }

    /** Where work that may block goes. */
    HandOff offLoop() {
        return offLoop;
    }

    int port() {
        return port;
    }

    int openConnections() {
        return open.get();
    }

    long refusedConnections() {
        return refused.get();
    }

    long refusedPerAddress() {
        return refusedPerAddress.get();
    }

    /** Stops accepting, shuts the gateway down with {@code grace}, then stops the loops. */
    void stop(Duration grace) {
        sweep.cancel(false);
        for (Channel s : servers) {
            s.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        if (sibling != null) {
            return; // the HTTP listener owns the gateway and the loops
        }
        gateway.shutdown(grace);
        loops.close();
        offLoop.shutdown();
        accessLogWriter.shutdown(); // the queued lines are still written
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
