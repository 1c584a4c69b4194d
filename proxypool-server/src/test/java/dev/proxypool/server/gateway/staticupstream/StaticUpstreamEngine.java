package dev.proxypool.server.gateway.staticupstream;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.dial.Target;
import dev.proxypool.sdk.dial.UpstreamHandshake;
import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.RouteDecision;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import dev.proxypool.server.gateway.UpstreamDialException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bare engine (see package-info): round-robin over a fixed list of upstream HTTP proxies; HTTP goes in
 * absolute-form (the event loops pool keep-alive connections), CONNECT is chained with a CONNECT to the
 * proxy. A retry skips proxies already tried; when none is left the request is rejected with
 * {@code no_candidate}. The product uses PoolGatewayEngine.
 * Thread-safe; {@link #route} is lock-free.
 */
public final class StaticUpstreamEngine implements GatewayEngine {

    /** Routing name reported in {@code X-ProxyPool-Routing}. */
    public static final String ROUTING = "static";

    private final StaticUpstream[] proxies;
    private final String upstreamName;
    private final int connectTimeoutMillis;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param upstreamName name reported in {@code X-ProxyPool-Upstream}
     * @param maxIdlePerProxy unused: the gateway's event loops pool idle keep-alive connections themselves
     */
    public StaticUpstreamEngine(
            String upstreamName,
            List<StaticUpstream> proxies,
            int connectTimeoutMillis,
            int maxIdlePerProxy,
            Ticker ticker) {
        if (proxies.isEmpty()) {
            throw new IllegalArgumentException("upstreams must not be empty");
        }
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive, got " + connectTimeoutMillis);
        }
        this.upstreamName = upstreamName;
        this.proxies = proxies.toArray(StaticUpstream[]::new);
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    public StaticUpstreamEngine(String upstreamName, List<StaticUpstream> proxies) {
        this(upstreamName, proxies, 5_000, 256, Ticker.system());
    }

    @Override
    public RouteDecision route(RouteRequest request) {
        int n = proxies.length;
        int start = Math.floorMod(next.getAndIncrement(), n);
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            if (!request.triedProxyIds().contains(proxies[i].id())) {
                inFlight.incrementAndGet();
                return new Attempt(i, request);
            }
        }
        return new RouteDecision.Rejected(503, GatewayErrors.NO_CANDIDATE, ROUTING);
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    private final class Attempt implements UpstreamAttempt {
        private final int index;
        private final RouteRequest request;
        private final AtomicBoolean done = new AtomicBoolean();

        Attempt(int index, RouteRequest request) {
            this.index = index;
            this.request = request;
        }

        @Override
        public String proxyId() {
            return proxies[index].id();
        }

        @Override
        public String upstream() {
            return upstreamName;
        }

        @Override
        public String routing() {
            return ROUTING;
        }

        @Override
        public UpstreamDial dial() throws UpstreamDialException {
            StaticUpstream proxy = proxies[index];
            InetSocketAddress address = new InetSocketAddress(proxy.host(), proxy.port());
            if (address.isUnresolved()) {
                throw new UpstreamDialException(FailureKind.UPSTREAM_UNREACHABLE, "proxy host did not resolve");
            }
            if (request.tunnel()) { // CONNECT through the proxy: the handshake codec the SDK dialer drives
                return new UpstreamDial(address, connectTimeoutMillis, UpstreamDial.Mode.TUNNEL, null, null)
                        .withHandshake(
                                UpstreamHandshake.tunnel(
                                        Protocol.HTTP,
                                        Target.of(request.host(), request.port()),
                                        proxy.username() == null
                                                ? null
                                                : Credentials.of(
                                                        proxy.username(),
                                                        proxy.password() == null ? "" : proxy.password())),
                                connectTimeoutMillis);
            }
            String auth = proxy.authorization();
            return new UpstreamDial(
                    address,
                    connectTimeoutMillis,
                    UpstreamDial.Mode.FORWARD,
                    auth == null ? null : new UpstreamDial.InjectedHeader("Proxy-Authorization", auth),
                    proxy.id());
        }

        @Override
        public void complete(AttemptOutcome outcome) {
            if (done.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
