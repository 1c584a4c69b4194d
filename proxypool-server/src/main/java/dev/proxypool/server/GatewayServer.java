package dev.proxypool.server;

import dev.proxypool.server.api.EchoHandler;
import dev.proxypool.server.gateway.ConnectionLimits;
import dev.proxypool.server.gateway.ExchangeListener;
import dev.proxypool.server.gateway.Gateway;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.GatewayListener;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import dev.proxypool.server.listener.ApiHeadDeadline;
import dev.proxypool.server.listener.ApiListenerWatchdog;
import dev.proxypool.server.listener.ListenerCloses;
import dev.proxypool.server.metrics.HelidonGatewayMetrics;
import dev.proxypool.server.tls.ListenerTls;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.openapi.OpenApiFeature;
import io.helidon.service.registry.Services;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * One process, two listeners (docs/architecture.md#processes-and-roles): the gateway forward proxy (default 8080, our own
 * {@link GatewayListener}) and the Helidon SE REST listener (default 9090) with
 * {@code /observe/health}, {@code /observe/metrics} and {@code GET /v1/echo}. Port 0 picks a free
 * port (tests). With {@code server.socksPort} set, a SOCKS5 listener runs beside the gateway
 * ({@link GatewayListener#startSocks}: same engine, authenticator and connection cap). {@link #stop()} closes the gateway first (idle connections at once, exchanges in
 * progress after a grace period), then the REST listener.
 *
 * <p>Limits on the REST listener: at most {@link ConnectionLimits#apiReserve()} connections at once
 * (more wait in the backlog), at most {@code server.maxConnectionsPerAddress} from one client address, a
 * deadline from accept to the first complete request head (TLS handshake included) and a request-head
 * deadline ({@link ApiHeadDeadline}, 408 then close), an
 * idle keep-alive timeout, and a watchdog that starts the listener again if its accept loop ended
 * ({@link ApiListenerWatchdog}).
 */
public final class GatewayServer implements AutoCloseable {

    /** The OpenAPI document of the REST listener, on the class path; served at {@code /openapi}. */
    public static final String OPENAPI_DOCUMENT = "META-INF/openapi.yaml";

    private final GatewayListener gateway;
    /** The SOCKS5 listener ({@code server.socksPort}), or null when off. */
    private final GatewayListener socks;

    private final ApiListenerWatchdog web;
    private final ApiHeadDeadline headDeadline;
    private final Duration grace;

    private GatewayServer(
            GatewayListener gateway,
            GatewayListener socks,
            ApiListenerWatchdog web,
            ApiHeadDeadline headDeadline,
            Duration grace) {
        this.gateway = gateway;
        this.socks = socks;
        this.web = web;
        this.headDeadline = headDeadline;
        this.grace = grace;
    }

    public static Builder builder(GatewayEngine engine) {
        return new Builder(engine);
    }

    public int gatewayPort() {
        return gateway.port();
    }

    public int apiPort() {
        return web.port();
    }

    /** The SOCKS5 listener's port, or -1 when {@code server.socksPort} is off. */
    public int socksPort() {
        return socks == null ? -1 : socks.port();
    }

    public Gateway gateway() {
        return gateway.gateway();
    }

    /** The gateway's cap on open client connections (0: none). */
    public int maxConnections() {
        return gateway.maxConnections();
    }

    /** Gateway client connections open now, as counted against {@link #maxConnections()}. */
    public int openGatewayConnections() {
        return gateway.openConnections();
    }

    /** How many times the REST listener was found dead (its accept loop ended) and started again. */
    public long apiRestarts() {
        return web.restarts();
    }

    public void stop() {
        if (socks != null) {
            socks.stop(grace); // its socket only: the gateway below closes its connections
        }
        gateway.stop(grace);
        web.stop();
        headDeadline.close();
    }

    @Override
    public void close() {
        stop();
    }

    /** Builder with the defaults of docs/configuration.md#server: gateway 8080, API 9090, loopback, anonymous access. */
    public static final class Builder {
        private final GatewayEngine engine;
        private int gatewayPort = 8080;
        private int apiPort = 9090;
        private int socksPort = -1;
        private InetAddress bind = InetAddress.getLoopbackAddress();
        private ProxyAuthenticator authenticator = ProxyAuthenticator.anonymous();
        private GatewayConfig config = GatewayConfig.DEFAULTS;
        private Duration grace = Duration.ofSeconds(5);
        private int gatewayThreads;
        private boolean accessLog;
        private ExchangeListener exchanges;
        private InstantSource wall = InstantSource.system();
        private Duration apiIdleTimeout = Duration.ofSeconds(60);
        private Duration apiFirstRequestTimeout = Duration.ofSeconds(10);
        private int apiMaxConnectionsPerAddress = 256;
        private Duration watchdogInterval = Duration.ofSeconds(1);
        private Consumer<HttpRouting.Builder> routes = r -> {};
        private final List<HealthCheck> checks = new ArrayList<>();
        private ListenerTls gatewayTls;
        private ListenerTls apiTls;

        private Builder(GatewayEngine engine) {
            this.engine = Objects.requireNonNull(engine, "engine");
        }

        public Builder gatewayPort(int port) {
            this.gatewayPort = checkPort("server.gatewayPort", port);
            return this;
        }

        public Builder apiPort(int port) {
            this.apiPort = checkPort("server.apiPort", port);
            return this;
        }

        /** Turns on the SOCKS5 listener ({@code server.socksPort}) on this port (0: any free port); off by default. */
        public Builder socksPort(int port) {
            this.socksPort = checkPort("server.socksPort", port);
            return this;
        }

        public Builder bindAddress(InetAddress address) {
            this.bind = Objects.requireNonNull(address, "bindAddress");
            return this;
        }

        public Builder authenticator(ProxyAuthenticator a) {
            this.authenticator = Objects.requireNonNull(a, "authenticator");
            return this;
        }

        public Builder config(GatewayConfig c) {
            this.config = Objects.requireNonNull(c, "config");
            return this;
        }

        public Builder shutdownGrace(Duration d) {
            this.grace = Objects.requireNonNull(d, "shutdownGrace");
            return this;
        }

        /** More REST routes on the API listener (distribution, admin, feedback). */
        public Builder routes(Consumer<HttpRouting.Builder> more) {
            this.routes = Objects.requireNonNull(more, "routes");
            return this;
        }

        /** More health checks under {@code /observe/health}. */
        public Builder healthCheck(HealthCheck check) {
            this.checks.add(Objects.requireNonNull(check, "check"));
            return this;
        }

        /** The gateway's access log ({@code server.accessLog}), its lines stamped by {@code wall}; off by default. */
        public Builder accessLog(boolean enabled, InstantSource wall) {
            this.accessLog = enabled;
            this.wall = Objects.requireNonNull(wall, "wall");
            return this;
        }

        /** Told about every ended gateway exchange (the admin API's request log and error breakdown); none by default. */
        public Builder exchanges(ExchangeListener listener) {
            this.exchanges = listener;
            return this;
        }

        /** An idle keep-alive connection on the REST listener is closed after this (default 60 s). */
        public Builder apiIdleTimeout(Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("server.apiIdleTimeout must be a positive duration, got " + d);
            }
            this.apiIdleTimeout = d;
            return this;
        }

        /**
         * {@code server.firstRequestTimeout} on the REST listener: from accept to the first request's complete
         * head, TLS handshake included (default 10 s); a connection that sent no request byte by then is closed.
         */
        public Builder apiFirstRequestTimeout(Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("server.firstRequestTimeout must be a positive duration, got " + d);
            }
            this.apiFirstRequestTimeout = d;
            return this;
        }

        /** {@code server.maxConnectionsPerAddress} on the REST listener: open connections per client address (256). */
        public Builder apiMaxConnectionsPerAddress(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("server.maxConnectionsPerAddress must be at least 1, got " + max);
            }
            this.apiMaxConnectionsPerAddress = max;
            return this;
        }

        /** How often the REST listener is checked for a dead accept loop (default 1 s). */
        public Builder watchdogInterval(Duration d) {
            this.watchdogInterval = Objects.requireNonNull(d, "watchdogInterval");
            return this;
        }

        /** TLS on the gateway listener ({@code server.gatewayTls}): an HTTPS proxy; null: plain. */
        public Builder gatewayTls(ListenerTls tls) {
            this.gatewayTls = tls;
            return this;
        }

        /** TLS on the REST listener ({@code server.apiTls}): API and console over HTTPS; null: plain. */
        public Builder apiTls(ListenerTls tls) {
            this.apiTls = tls;
            return this;
        }

        /**
         * Event loops of the gateway's event-loop data plane ({@code server.gatewayThreads}); 0, the
         * default: one per core.
         */
        public Builder gatewayThreads(int threads) {
            if (threads < 0) {
                throw new IllegalArgumentException("gatewayThreads must not be negative, got " + threads);
            }
            this.gatewayThreads = threads;
            return this;
        }

        public GatewayServer start() {
            MeterRegistry registry = Services.get(MeterRegistry.class);
            Gateway gw = Gateway.builder(engine)
                    .authenticator(authenticator)
                    .config(config)
                    .metrics(new HelidonGatewayMetrics(registry))
                    .accessLog(accessLog, wall)
                    .exchanges(exchanges)
                    .build();
            GatewayListener listener;
            try {
                listener = GatewayListener.start(
                        gw, bind, gatewayPort, gatewayTls == null ? null : gatewayTls.layer(), gatewayThreads);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot bind the gateway listener on port " + gatewayPort, e);
            }
            GatewayListener socks = null;
            if (socksPort >= 0) {
                try {
                    socks = GatewayListener.startSocks(listener, bind, socksPort);
                } catch (IOException e) {
                    listener.stop(Duration.ZERO);
                    throw new UncheckedIOException("cannot bind the SOCKS5 listener on port " + socksPort, e);
                }
            }
            HealthCheck gatewayCheck = new HealthCheck() {
                @Override
                public String name() {
                    return "gateway";
                }

                @Override
                public HealthCheckType type() {
                    return HealthCheckType.LIVENESS;
                }

                @Override
                public HealthCheckResponse call() {
                    return HealthCheckResponse.builder()
                            .status(!gw.stopping())
                            .detail("openConnections", gw.openConnections())
                            .detail("maxConnections", listener.maxConnections())
                            .detail("refusedConnections", listener.refusedConnections())
                            .build();
                }
            };
            ConnectionLimits limits = ConnectionLimits.ofThisProcess();
            // the API's own cap: a flood of API clients waits in the backlog instead of taking every descriptor
            int apiMax = limits.apiReserve();
            Duration sweep = Duration.ofMillis(Math.clamp(apiIdleTimeout.toMillis() / 4, 100, 30_000));
            ApiHeadDeadline headDeadline = new ApiHeadDeadline(
                    config.requestHeadTimeout(),
                    apiFirstRequestTimeout,
                    apiMaxConnectionsPerAddress,
                    new ListenerCloses(registry, "api"));
            try {
                IntFunction<WebServer> factory = port -> WebServer.builder()
                        .address(bind)
                        .port(port)
                        .shutdownHook(false)
                        .protocolsDiscoverServices(false) // HTTP/1 through the head deadline only
                        .addConnectionSelector(headDeadline)
                        .maxTcpConnections(apiMax)
                        .idleConnectionTimeout(apiIdleTimeout)
                        .idleConnectionPeriod(sweep)
                        .addFeature(ObserveFeature.just(
                                HealthObserver.builder()
                                        .details(true)
                                        .addCheck(gatewayCheck)
                                        .addChecks(checks.toArray(HealthCheck[]::new))
                                        .build(),
                                MetricsObserver.create()))
                        // the REST API's description, kept in the repository and checked against the API tests
                        .addFeature(OpenApiFeature.builder()
                                .staticFile(OPENAPI_DOCUMENT)
                                .servicesDiscoverServices(false)
                                .managerDiscoverServices(false)
                                .build())
                        .routing(r -> {
                            r.get("/v1/echo", new EchoHandler());
                            routes.accept(r);
                        })
                        .update(b -> {
                            if (apiTls != null) {
                                b.tls(apiTls.helidonTls());
                            }
                        })
                        .build()
                        .start();
                ApiListenerWatchdog web = ApiListenerWatchdog.start(factory, apiPort, bind, watchdogInterval);
                return new GatewayServer(listener, socks, web, headDeadline, grace);
            } catch (RuntimeException e) {
                headDeadline.close();
                if (socks != null) {
                    socks.stop(Duration.ZERO);
                }
                listener.stop(Duration.ZERO);
                throw e;
            }
        }

        private static int checkPort(String key, int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException(key + " must be 0..65535, got " + port);
            }
            return port;
        }
    }
}
