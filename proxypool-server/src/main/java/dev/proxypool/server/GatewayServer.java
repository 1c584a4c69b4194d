package dev.proxypool.server;

import dev.proxypool.server.gateway.Gateway;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.GatewayListener;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.service.registry.Services;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * One process, two listeners (SPEC §11): the gateway forward proxy (default 8080, our own
 * {@link GatewayListener}) and the Helidon SE REST listener (default 9090) with
 * {@code /observe/health}, {@code /observe/metrics} and {@code GET /v1/echo}. Port 0 picks a free
 * port (tests). {@link #stop()} closes the gateway first (idle connections at once, exchanges in
 * progress after a grace period), then the REST listener.
 */
public final class GatewayServer implements AutoCloseable {

    private final GatewayListener gateway;
    private final WebServer web;
    private final Duration grace;

    private GatewayServer(GatewayListener gateway, WebServer web, Duration grace) {
        this.gateway = gateway;
        this.web = web;
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

    public Gateway gateway() {
        return gateway.gateway();
    }

    public void stop() {
        gateway.stop(grace);
        web.stop();
    }

    @Override
    public void close() {
        stop();
    }

    /** Builder with the SPEC defaults: gateway 8080, API 9090, loopback, anonymous access. */
    public static final class Builder {
        private final GatewayEngine engine;
        private int gatewayPort = 8080;
        private int apiPort = 9090;
        private InetAddress bind = InetAddress.getLoopbackAddress();
        private ProxyAuthenticator authenticator = ProxyAuthenticator.anonymous();
        private GatewayConfig config = GatewayConfig.DEFAULTS;
        private Duration grace = Duration.ofSeconds(5);
        private boolean platformThreads;
        private java.util.function.Consumer<io.helidon.webserver.http.HttpRouting.Builder> routes = r -> { };
        private final java.util.List<HealthCheck> checks = new java.util.ArrayList<>();

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
        public Builder routes(java.util.function.Consumer<io.helidon.webserver.http.HttpRouting.Builder> more) {
            this.routes = Objects.requireNonNull(more, "routes");
            return this;
        }

        /** More health checks under {@code /observe/health}. */
        public Builder healthCheck(HealthCheck check) {
            this.checks.add(Objects.requireNonNull(check, "check"));
            return this;
        }

        /** One platform thread per gateway connection instead of a virtual thread (for measurements). */
        public Builder platformThreads(boolean platform) {
            this.platformThreads = platform;
            return this;
        }

        public GatewayServer start() {
            MeterRegistry registry = Services.get(MeterRegistry.class);
            Gateway gw = Gateway.builder(engine)
                    .authenticator(authenticator)
                    .config(config)
                    .metrics(new HelidonGatewayMetrics(registry))
                    .build();
            GatewayListener listener;
            try {
                listener = GatewayListener.start(gw, bind, gatewayPort, !platformThreads);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot bind the gateway listener on port " + gatewayPort, e);
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
                            .build();
                }
            };
            try {
                WebServer web = WebServer.builder()
                        .address(bind)
                        .port(apiPort)
                        .shutdownHook(false)
                        .addFeature(ObserveFeature.just(
                                HealthObserver.builder().details(true).addCheck(gatewayCheck).addChecks(checks.toArray(HealthCheck[]::new)).build(),
                                MetricsObserver.create()))
                        .routing(r -> {
                            r.get("/v1/echo", new EchoHandler());
                            routes.accept(r);
                        })
                        .build()
                        .start();
                if (!web.isRunning() || web.port() < 0) {
                    // Helidon logs a failed bind and returns a stopped server instead of throwing
                    web.stop();
                    throw new IllegalStateException("the API listener could not start on " + bind.getHostAddress() + ":"
                            + apiPort + " (address already in use?)");
                }
                return new GatewayServer(listener, web, grace);
            } catch (RuntimeException e) {
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
