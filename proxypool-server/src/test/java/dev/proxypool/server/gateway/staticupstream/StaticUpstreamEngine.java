package dev.proxypool.server.gateway.staticupstream;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.dial.Target;
import dev.proxypool.sdk.dial.UpstreamHandshake;
import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.IdleLinkPool;
import dev.proxypool.server.gateway.RouteDecision;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import dev.proxypool.server.gateway.UpstreamLink;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bare engine (see package-info): round-robin over a fixed list of upstream HTTP proxies; HTTP goes in
 * absolute-form over pooled keep-alive connections, CONNECT is chained with a CONNECT to the
 * proxy. A retry skips proxies already tried; when none is left the request is rejected with
 * {@code no_candidate}. The product uses PoolGatewayEngine.
 * Thread-safe; {@link #route} is lock-free.
 */
public final class StaticUpstreamEngine implements GatewayEngine {

    /** Routing name reported in {@code X-ProxyPool-Routing}. */
    public static final String ROUTING = "static";

    private final StaticUpstream[] proxies;
    private final IdleLinkPool[] pools;
    private final String upstreamName;
    private final int connectTimeoutMillis;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param upstreamName name reported in {@code X-ProxyPool-Upstream}
     * @param maxIdlePerProxy idle keep-alive connections kept per proxy (0 disables pooling)
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
        this.pools = new IdleLinkPool[this.proxies.length];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new IdleLinkPool(maxIdlePerProxy, TimeUnit.SECONDS.toNanos(15), ticker);
        }
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

    /** Idle pooled connections over all proxies. */
    public int idleConnections() {
        int total = 0;
        for (IdleLinkPool p : pools) {
            total += p.size();
        }
        return total;
    }

    /** Closes pooled idle connections. */
    public void close() {
        for (IdleLinkPool p : pools) {
            p.closeAll();
        }
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
        public UpstreamDial dial() {
            StaticUpstream proxy = proxies[index];
            InetSocketAddress address = new InetSocketAddress(proxy.host(), proxy.port());
            if (address.isUnresolved()) {
                return null;
            }
            if (request.tunnel()) { // CONNECT through the proxy: the handshake codec the SDK dialer drives
                return new UpstreamDial(address, connectTimeoutMillis, UpstreamLink.Mode.TUNNEL, null, null)
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
                    UpstreamLink.Mode.FORWARD,
                    auth == null ? null : new UpstreamLink.InjectedHeader("Proxy-Authorization", auth),
                    proxy.id());
        }

        @Override
        public UpstreamLink open(boolean allowReuse) throws IOException {
            StaticUpstream proxy = proxies[index];
            if (request.tunnel()) {
                return HttpProxyConnector.tunnel(proxy, request.host(), request.port(), connectTimeoutMillis);
            }
            if (allowReuse) {
                UpstreamLink pooled = pools[index].take();
                if (pooled != null) {
                    return pooled;
                }
            }
            Socket s = HttpProxyConnector.dial(proxy, connectTimeoutMillis);
            String auth = proxy.authorization();
            return UpstreamLink.of(
                    s,
                    UpstreamLink.Mode.FORWARD,
                    auth == null ? null : new UpstreamLink.InjectedHeader("Proxy-Authorization", auth),
                    pools[index]::give);
        }

        @Override
        public void complete(AttemptOutcome outcome) {
            if (done.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
