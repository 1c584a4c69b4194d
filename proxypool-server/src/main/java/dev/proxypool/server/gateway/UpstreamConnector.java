package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.DialStage;
import dev.proxypool.sdk.dial.Failures;
import dev.proxypool.sdk.dial.HandshakeRejected;
import dev.proxypool.sdk.dial.UpstreamHandshake;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Opens an upstream connection on a client connection's event loop without blocking: the TCP
 * connect, TLS to an HTTPS proxy, then the proxy handshake ({@link UpstreamHandshake}, the codec the
 * blocking dialer drives too) within the dial's handshake bound; failures classified with the
 * blocking dialer's table ({@link Failures}).
 */
final class UpstreamConnector {

    private UpstreamConnector() {}

    /** What an upstream connection being opened reports to. */
    interface Dialed {
        /**
         * @param c     the open connection (reads off)
         * @param early the tunnel's first bytes the proxy sent with its reply, or null
         */
        void open(Channel c, ByteBuf early);
    }

    private static Bootstrap bootstrap(
            EventLoop loop, Class<? extends Channel> type, UpstreamDial d, UpstreamHandler handler) {
        return new Bootstrap()
                .group(loop)
                .channel(type)
                .disableResolver() // the address is resolved already: no resolver lookup (a lock shared by the loops)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, d.connectTimeoutMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.AUTO_READ, false)
                .handler(handler);
    }

    /**
     * Opens {@code d}'s connection on {@code loop}: the TCP connect, TLS to an HTTPS proxy, the proxy
     * handshake (within the dial's handshake bound from the connect); then {@code done} gets the open
     * connection, or {@code failed} the kind.
     */
    static void open(
            EventLoop loop,
            Class<? extends Channel> type,
            Ticker ticker,
            UpstreamDial d,
            UpstreamAttempt a,
            UpstreamHandler handler,
            Dialed done,
            Consumer<FailureKind> failed) {
        long t0 = ticker.read();
        bootstrap(loop, type, d, handler).connect(d.address()).addListener((ChannelFutureListener) cf -> {
            Channel c = cf.channel();
            if (!cf.isSuccess()) {
                failed.accept(connectFailure(cf.cause()));
                return;
            }
            if (d.tls() == null && d.handshake() == null) {
                a.connected(ticker.read() - t0);
                done.open(c, null);
                return;
            }
            Dialing dialing = new Dialing(d, a, c, handler, ticker, done, failed, t0);
            handler.dialing = dialing;
            dialing.timer = c.eventLoop()
                    .schedule(
                            () -> dialing.fail(Failures.classify(
                                            new SocketTimeoutException("handshake deadline passed"),
                                            DialStage.HANDSHAKE)
                                    .kind()),
                            Math.max(1, d.handshakeTimeoutMillis()),
                            TimeUnit.MILLISECONDS);
            if (d.tls() != null) {
                SSLEngine engine =
                        d.tls().createSSLEngine(d.tlsHost(), d.address().getPort());
                engine.setUseClientMode(true);
                SSLParameters p = engine.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                engine.setSSLParameters(p);
                SslHandler ssl = new SslHandler(engine);
                c.pipeline().addFirst(ssl);
                ssl.handshakeFuture().addListener(hf -> {
                    if (hf.isSuccess()) {
                        dialing.startHandshake();
                    } else {
                        Throwable t = hf.cause();
                        dialing.fail(Failures.classify(
                                        t instanceof IOException e ? e : new SSLException(String.valueOf(t)),
                                        DialStage.TLS)
                                .kind());
                    }
                });
                HttpProxyHandler.autoRead(c, true);
            } else {
                dialing.startHandshake();
            }
        });
    }

    /** One upstream connection between its connect and its open tunnel (TLS, the proxy handshake). */
    static final class Dialing {
        final UpstreamDial d;
        final UpstreamAttempt a;
        final Channel c;
        final UpstreamHandler handler;
        final Ticker ticker;
        final Dialed done;
        final Consumer<FailureKind> failed;
        final long t0;
        ScheduledFuture<?> timer;
        boolean over;

        Dialing(
                UpstreamDial d,
                UpstreamAttempt a,
                Channel c,
                UpstreamHandler handler,
                Ticker ticker,
                Dialed done,
                Consumer<FailureKind> failed,
                long t0) {
            this.d = d;
            this.a = a;
            this.c = c;
            this.handler = handler;
            this.ticker = ticker;
            this.done = done;
            this.failed = failed;
            this.t0 = t0;
        }

        void startHandshake() {
            if (over) {
                return;
            }
            UpstreamHandshake h = d.handshake();
            if (h == null) {
                finish(null);
                return;
            }
            writeOutput(h);
            HttpProxyHandler.autoRead(c, true);
        }

        private void writeOutput(UpstreamHandshake h) {
            byte[] out = h.output();
            if (out.length > 0) {
                c.writeAndFlush(Unpooled.wrappedBuffer(out), c.voidPromise());
            }
        }

        void read(ByteBuf in) {
            if (over || d.handshake() == null) {
                in.release(); // nothing is expected before the handshake starts
                return;
            }
            UpstreamHandshake h = d.handshake();
            boolean open;
            try {
                ByteBuffer nio = in.nioBuffer();
                int before = nio.position();
                open = h.input(nio);
                in.skipBytes(nio.position() - before);
            } catch (HandshakeRejected e) {
                in.release();
                if (e.destinationForbidden()) {
                    a.answered(403); // the proxy's policy refuses this destination: a per-domain matter
                }
                fail(e.kind());
                return;
            }
            writeOutput(h);
            if (!open) {
                in.release();
                return;
            }
            if (in.isReadable()) {
                finish(in);
            } else {
                in.release();
                finish(null);
            }
        }

        void closed() {
            fail(Failures.classify(new EOFException("the proxy closed mid-handshake"), DialStage.HANDSHAKE)
                    .kind());
        }

        void fail(FailureKind kind) {
            if (over) {
                return;
            }
            over = true;
            HttpProxyHandler.cancel(timer);
            handler.dialing = null;
            c.close();
            failed.accept(kind);
        }

        private void finish(ByteBuf early) {
            over = true;
            HttpProxyHandler.cancel(timer);
            handler.dialing = null;
            HttpProxyHandler.autoRead(c, false);
            a.connected(ticker.read() - t0);
            done.open(c, early);
        }
    }

    /** Who is blamed for a connect or handshake that failed with {@code t}. */
    static FailureKind connectFailure(Throwable t) {
        if (t instanceof ConnectTimeoutException || t instanceof SocketTimeoutException) {
            return FailureKind.CONNECT_TIMEOUT;
        }
        if (t instanceof ConnectException) {
            return FailureKind.CONNECTION_REFUSED;
        }
        if (t instanceof UpstreamDialException d) {
            return d.kind();
        }
        return FailureKind.CONNECTION_RESET;
    }
}
