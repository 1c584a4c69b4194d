package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The forward proxy's collaborators (engine, authenticator, metrics, limits, access log, exchange
 * listener) shared by its listeners ({@link GatewayListener}: HTTP and SOCKS5 on the event loops). It
 * tracks open connections so {@link #shutdown(Duration)} can close idle ones at once and give
 * in-progress exchanges a grace period. Thread-safe.
 */
public final class Gateway {

    private final GatewayEngine engine;
    private final ProxyAuthenticator authenticator;
    private final GatewayMetrics metrics;
    private final GatewayConfig config;
    private final Ticker ticker;
    private final AccessLog accessLog;
    private final ExchangeListener exchanges;
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
    }

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
