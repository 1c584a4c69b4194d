package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The forward-proxy protocol with its collaborators (engine, authenticator, metrics, limits),
 * independent of who accepts connections: {@link GatewayListener} (our own socket listener, the
 * chosen design, see GATEWAY-DESIGN.md) or {@code GatewayConnectionSelector} (a Helidon listener,
 * kept in the test fixtures for the load harness).
 *
 * <p>Each client connection runs {@link GatewayConnection} on its own virtual thread with plain
 * blocking I/O. The gateway tracks open connections so {@link #shutdown(Duration)} can close idle
 * ones at once and give in-progress exchanges a grace period. Thread-safe.
 */
public final class Gateway {

    private final GatewayEngine engine;
    private final ProxyAuthenticator authenticator;
    private final GatewayMetrics metrics;
    private final GatewayConfig config;
    private final Ticker ticker;
    private final AccessLog accessLog;
    private final ExchangeListener exchanges;
    private final BufferPool buffers;
    private final IdleWatchdog tunnelWatchdog;
    private final IdleWatchdog connectionWatchdog;
    private final Set<ServedConnection> connections = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    private Gateway(Builder b) {
        this.engine = b.engine;
        this.authenticator = b.authenticator;
        this.metrics = b.metrics;
        this.config = b.config;
        this.ticker = b.ticker;
        this.accessLog = b.accessLogWall == null ? null : new AccessLog(b.accessLogWall);
        this.exchanges = b.exchanges;
        // two buffers per connection; enough kept for ~BUFFER_POOL_CONNECTIONS connections' churn
        this.buffers = new BufferPool(config.bufferBytes(), 2 * BUFFER_POOL_CONNECTIONS);
        this.tunnelWatchdog = new IdleWatchdog(ticker, config.tunnelIdleTimeout());
        Duration shortest = config.idleTimeout().compareTo(config.requestHeadTimeout()) < 0
                ? config.idleTimeout()
                : config.requestHeadTimeout();
        this.connectionWatchdog = new IdleWatchdog(
                ticker, shortest.compareTo(config.firstRequestTimeout()) < 0 ? shortest : config.firstRequestTimeout());
    }

    /** Connections whose buffers the pool keeps for reuse (a pool of 16 KiB buffers: 8 MiB). */
    private static final int BUFFER_POOL_CONNECTIONS = 256;

    public static Builder builder(GatewayEngine engine) {
        return new Builder(engine);
    }

    public GatewayEngine engine() {
        return engine;
    }

    public GatewayConfig config() {
        return config;
    }

    /** Client connections currently open. */
    public int openConnections() {
        return connections.size();
    }

    public boolean stopping() {
        return stopping;
    }

    /**
     * Stops serving: idle keep-alive connections close now; exchanges in progress get up to
     * {@code grace} to finish (their response says {@code Connection: close}); the rest are closed.
     */
    public void shutdown(Duration grace) {
        stopping = true;
        long deadline = ticker.read() + grace.toNanos();
        while (!connections.isEmpty() && ticker.read() - deadline < 0) {
            for (ServedConnection c : connections) {
                if (c.idle()) {
                    c.abort();
                }
            }
            LockSupport.parkNanos(10_000_000L);
        }
        for (ServedConnection c : connections) {
            c.abort();
        }
    }

    /** Serves one accepted connection on the calling thread until it closes. */
    void serve(ClientChannel channel) {
        serve(
                channel,
                first -> new GatewayConnection(this, channel, false, first),
                null,
                ClosedReason.LISTENER_GATEWAY);
    }

    /**
     * Serves one accepted connection; {@code closed} runs exactly once, when the connection has
     * closed. Usually that is on the calling thread before this returns; a CONNECT tunnel carried by
     * the selector relay is handed over to it instead (no thread waits for its end), and then {@code
     * closed} runs on the relay's thread when the tunnel ends, after this returned.
     */
    void serve(ClientChannel channel, Runnable closed) {
        serve(
                channel,
                first -> new GatewayConnection(this, channel, true, first),
                closed,
                ClosedReason.LISTENER_GATEWAY);
    }

    /** Serves one connection accepted on the SOCKS5 listener on the calling thread; then runs {@code closed}. */
    void serveSocks(ClientChannel channel, Runnable closed) {
        serve(channel, first -> new SocksConnection(this, channel, first), closed, ClosedReason.LISTENER_SOCKS);
    }

    private void serve(
            ClientChannel channel,
            Function<FirstRequestDeadline, ServedConnection> make,
            Runnable closed,
            String listener) {
        // from accept to the first complete request (under load this thread may start a while after the accept)
        FirstRequestDeadline first = FirstRequestDeadline.start(
                channel,
                connectionWatchdog,
                channel.acceptedAt().orElseGet(ticker::read),
                config.firstRequestTimeout().toNanos(),
                () -> metrics.connectionClosed(listener, ClosedReason.FIRST_REQUEST_TIMEOUT));
        ServedConnection c;
        try {
            c = make.apply(first);
        } catch (RuntimeException | Error e) {
            first.met();
            channel.close();
            if (closed != null) {
                closed.run();
            }
            throw e;
        }
        connections.add(c);
        AtomicBoolean ended = new AtomicBoolean();
        Runnable end = () -> {
            if (ended.compareAndSet(false, true)) {
                first.met(); // no longer watched, however the connection ended
                connections.remove(c);
                if (closed != null) {
                    closed.run();
                }
            }
        };
        boolean handedOver = false;
        try {
            if (stopping) {
                channel.close();
                return;
            }
            handedOver = c.run(end);
        } finally {
            if (!handedOver) {
                end.run();
            }
        }
    }

    /** Tracks a connection served on an event loop, for {@link #shutdown} and {@link #openConnections()}. */
    void track(ServedConnection c) {
        connections.add(c);
    }

    void untrack(ServedConnection c) {
        connections.remove(c);
    }

    ProxyAuthenticator authenticator() {
        return authenticator;
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    Ticker ticker() {
        return ticker;
    }

    BufferPool buffers() {
        return buffers;
    }

    /**
     * Logs a defect of a connection handler (not the client's doing: the connection ends, the gateway
     * keeps serving): the exception's type and where it was thrown, never its message, which may carry
     * a target.
     */
    static void logHandlerDefect(System.Logger log, String handler, RuntimeException e) {
        StackTraceElement[] at = e.getStackTrace();
        log.log(
                System.Logger.Level.WARNING,
                "{0} connection handler failed: {1} at {2}",
                handler,
                e.getClass().getName(),
                at.length > 0 ? at[0] : "?");
    }

    /**
     * Closes a served connection (gracefully: after a final error answer, so the client can read it)
     * and gives its reader's and writer's buffers back, unless another thread may still use them.
     */
    void closeConnection(ClientChannel ch, boolean graceful, WireReader in, WireWriter out, boolean buffersFree) {
        if (graceful) {
            ch.closeGracefully();
        } else {
            ch.close();
        }
        if (buffersFree) {
            buffers.give(in.buffer());
            buffers.give(out.buffer());
        }
    }

    /** Closes established tunnels idle for {@code tunnelIdleTimeout} (their reads have no timeout). */
    IdleWatchdog tunnelWatchdog() {
        return tunnelWatchdog;
    }

    /**
     * Ends client connections whose first request byte did not come in time ({@code idleTimeout} for
     * keep-alive: {@link FirstByteWait}), and those whose first request was not complete within {@code
     * firstRequestTimeout} of accept ({@link FirstRequestDeadline}). Its period is an eighth of the
     * shortest of {@code idleTimeout}, {@code requestHeadTimeout} and {@code firstRequestTimeout} (at most a
     * second).
     */
    IdleWatchdog connectionWatchdog() {
        return connectionWatchdog;
    }

    /** The access log, or {@code null} when it is off. */
    AccessLog accessLog() {
        return accessLog;
    }

    /** Who is told about every ended exchange, or {@code null}. */
    ExchangeListener exchanges() {
        return exchanges;
    }

    /** Builder; only the engine is required. */
    public static final class Builder {
        private final GatewayEngine engine;
        private ProxyAuthenticator authenticator = ProxyAuthenticator.anonymous();
        private GatewayMetrics metrics = GatewayMetrics.NONE;
        private GatewayConfig config = GatewayConfig.DEFAULTS;
        private Ticker ticker = Ticker.system();
        private InstantSource accessLogWall;
        private ExchangeListener exchanges;

        private Builder(GatewayEngine engine) {
            this.engine = Objects.requireNonNull(engine, "engine");
        }

        public Builder authenticator(ProxyAuthenticator a) {
            this.authenticator = Objects.requireNonNull(a, "authenticator");
            return this;
        }

        public Builder metrics(GatewayMetrics m) {
            this.metrics = Objects.requireNonNull(m, "metrics");
            return this;
        }

        public Builder config(GatewayConfig c) {
            this.config = Objects.requireNonNull(c, "config");
            return this;
        }

        public Builder ticker(Ticker t) {
            this.ticker = Objects.requireNonNull(t, "ticker");
            return this;
        }

        /**
         * Turns the access log ({@code server.accessLog}) on or off; {@code wall} stamps its lines.
         * Off by default.
         */
        public Builder accessLog(boolean enabled, InstantSource wall) {
            this.accessLogWall = enabled ? Objects.requireNonNull(wall, "wall") : null;
            return this;
        }

        /**
         * Told about every ended request, tunnel and SOCKS5 connection (the admin API's request log
         * and error breakdown); null, the default, for none.
         */
        public Builder exchanges(ExchangeListener listener) {
            this.exchanges = listener;
            return this;
        }

        public Gateway build() {
            return new Gateway(this);
        }
    }
}
