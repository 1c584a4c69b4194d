package dev.proxypool.server;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.Headers;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The request-head deadline ({@code server.requestHeadTimeout}) on the REST listener, which Helidon
 * does not have: its HTTP/1 connection waits for a head as long as bytes keep trickling in. This
 * selector serves HTTP/1 with Helidon's own connection, over a reader that notes when a request's
 * first bytes arrive; if that request's header block is not complete within the deadline, the
 * client gets {@code 408 Request Timeout} and the connection is closed.
 *
 * <p>The deadline starts with the first bytes read while no request is in progress, stops when
 * Helidon has parsed the headers, and a final (non-1xx) response status makes the connection idle
 * again. Idle keep-alive connections are Helidon's idle-connection timer's business.
 * Use it alone on its listener ({@code protocolsDiscoverServices(false)}).
 */
final class ApiHeadDeadline implements ServerConnectionSelector, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ApiHeadDeadline.class.getName());
    /** How long a connection stays open after its 408, its input read and dropped, before it is closed. */
    private static final long LINGER_MILLIS = 1000;

    private final long timeoutNanos;
    private final byte[] response;
    private final ScheduledThreadPoolExecutor timer;
    private final ServerConnectionSelector http1;

    ApiHeadDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        byte[] body = ("request_timeout: the request head did not arrive within " + timeout.toMillis() + " ms\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.response = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                        + body.length + "\r\nConnection: close\r\n\r\n" + new String(body, StandardCharsets.US_ASCII))
                .getBytes(StandardCharsets.US_ASCII);
        this.timer = new ScheduledThreadPoolExecutor(
                1,
                r -> Thread.ofPlatform().daemon(true).name("api-head-deadline").unstarted(r));
        this.timer.setRemoveOnCancelPolicy(true);
        Http1ConnectionListener events = new Http1ConnectionListener() {
            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                if (ctx instanceof Tracked t) {
                    t.headComplete();
                }
            }

            @Override
            public void status(ConnectionContext ctx, Status status) {
                if (ctx instanceof Tracked t && status.code() >= 200) {
                    t.responded();
                }
            }
        };
        this.http1 = Http1ConnectionSelector.builder()
                .config(Http1Config.builder()
                        .addReceiveListener(events)
                        .addSendListener(events)
                        .build())
                .build();
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        Tracked tracked = new Tracked(ctx);
        ServerConnection c = http1.connection(tracked);
        return new ServerConnection() {
            @Override
            public void handle(Limit limit) throws InterruptedException {
                try {
                    c.handle(limit);
                } finally {
                    tracked.closed();
                }
            }

            @Override
            public Duration idleTime() {
                return c.idleTime();
            }

            @Override
            public void close(boolean interrupt) {
                c.close(interrupt);
            }
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One connection's context, with a reader that reports arriving bytes to the deadline. */
    private final class Tracked implements ConnectionContext {
        private final ConnectionContext ctx;
        private final DataReader reader;
        private ScheduledFuture<?> pending;
        private boolean inRequest;
        private boolean done;
        private boolean expired;

        Tracked(ConnectionContext ctx) {
            this.ctx = ctx;
            DataReader original = ctx.dataReader();
            this.reader = DataReader.create(() -> {
                if (original.available() == 0) {
                    original.pullData(); // blocks; the end of the stream surfaces as Helidon's own exception
                }
                byte[] bytes = original.readBytes(original.available());
                if (draining()) {
                    // the 408 is on its way: what still arrives is read and dropped until the lingering
                    // close (or the client's own) ends the connection, so Helidon answers nothing more
                    // and the close is a FIN, not a reset that could destroy the 408 in the client's buffers
                    while (true) {
                        original.pullData();
                        original.readBytes(original.available());
                    }
                }
                arrived();
                return bytes;
            });
        }

        private synchronized void arrived() {
            if (!inRequest && !done) {
                inRequest = true;
                pending = timer.schedule(this::expired, timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }

        synchronized void headComplete() {
            if (pending != null) {
                pending.cancel(false);
                pending = null;
            }
        }

        synchronized void responded() {
            headComplete();
            inRequest = false;
        }

        private synchronized boolean draining() {
            return expired;
        }

        synchronized void closed() {
            done = true;
            headComplete();
        }

        private void expired() {
            synchronized (this) {
                if (pending == null || done) {
                    return; // the head completed meanwhile
                }
                pending = null;
                done = true;
                expired = true;
            }
            try {
                ctx.dataWriter().writeNow(BufferData.create(response));
                // closing at once while the client's bytes keep arriving would reset the connection;
                // the connection's blocked read fails on this close and it ends
                timer.schedule(() -> ctx.serverSocket().close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "408 not delivered: {0}", e.toString());
                ctx.serverSocket().close();
            }
        }

        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return ctx.dataWriter();
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return ctx.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return ctx.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }
}
