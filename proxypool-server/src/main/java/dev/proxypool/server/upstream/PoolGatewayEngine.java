package dev.proxypool.server.upstream;

import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.NoCandidatePolicy;
import dev.proxypool.core.routing.RequestFacts;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.access.SessionChoice;
import dev.proxypool.server.access.UsernameOptions;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.IdleUpstreams;
import dev.proxypool.server.gateway.RouteDecision;
import dev.proxypool.server.gateway.RouteRefusedException;
import dev.proxypool.server.gateway.RouteRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The gateway's engine over the pool (docs/design.md#gateway-flow, G1): access checks (rate limit, destination),
 * first-match routing, sticky session from the session header or the username, pick + reserve
 * through {@link PoolEngine}, and an {@link PoolAttempt} that dials the leased proxy with the SDK's
 * {@link UpstreamDialer}'s handshakes (absolute-form forwarding over the event loops' pooled keep-alive
 * connections for plain HTTP through HTTP proxies; CONNECT/SOCKS tunnels otherwise) and reports the
 * outcome to health.
 *
 * <p>Nothing remote on the hot path: the snapshot and counters are local. Thread-safe and lock-free.
 */
public final class PoolGatewayEngine implements GatewayEngine {

    private final PoolEngine engine;
    private final UpstreamDialer dialer;
    private final AccessControl access;
    private final Predicate<Proxy> resolution;
    private final Ticker ticker;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentHashMap<String, RetryRule> retryRules = new ConcurrentHashMap<>();

    public PoolGatewayEngine(PoolEngine engine, UpstreamDialer dialer, AccessControl access) {
        this(engine, dialer, access, DestinationResolution.NEVER);
    }

    /**
     * @param resolution the proxies for which the gateway resolves destination names itself and dials
     *                   the checked address ({@code resolveDestinations})
     */
    public PoolGatewayEngine(
            PoolEngine engine, UpstreamDialer dialer, AccessControl access, Predicate<Proxy> resolution) {
        this.engine = engine;
        this.dialer = dialer;
        this.access = access;
        this.resolution = resolution;
        this.ticker = engine.ticker();
        engine.addSnapshotListener(this::closeIdleOfGone);
    }

    /**
     * A proxy that left the pool (removed, expired, extracted, disabled) is never picked again, so
     * nothing would ever take its idle keep-alive connections: the event loops close them, else every
     * churned proxy keeps its idle sockets open for the life of the process.
     */
    private void closeIdleOfGone(PoolSnapshot snapshot) {
        if (!IdleUpstreams.inUse()) {
            return;
        }
        Set<String> present = new HashSet<>();
        for (Proxy p : snapshot.proxies()) {
            present.add(p.id());
        }
        IdleUpstreams.close(id -> !present.contains(id));
    }

    @Override
    public RouteDecision route(RouteRequest request) {
        return route(request, true);
    }

    /**
     * {@inheritDoc} A request whose routing may wait for a proxy (its {@code onNoCandidate: wait}, or a
     * sticky session's wait for its own busy proxy) is not routed here at all: {@code null}, before any
     * check or count, so the caller routes it with {@link #route} on a thread that may wait.
     */
    @Override
    public RouteDecision routeWithoutLookup(RouteRequest request) {
        RoutingRule rule = engine.route(new Facts(request));
        if (rule != null && mayWait(rule, request)) {
            return null;
        }
        return route(request, false);
    }

    /** Whether acquiring under {@code rule} may park: a waiting routing, or a request naming a sticky session. */
    private boolean mayWait(RoutingRule rule, RouteRequest request) {
        if (rule.onNoCandidate() == NoCandidatePolicy.WAIT) {
            return true;
        }
        if (!rule.sticky().enabled()) {
            return false;
        }
        String session = sessionOf(
                access.options(request.client(), request.headers()),
                request.headers().first(rule.sticky().header()));
        return session == null || !session.isEmpty();
    }

    /**
     * @param mayLookUp false on an event loop: a destination name to resolve ({@code resolveDestinations},
     *                  {@code onNoCandidate: direct}) is left to the attempt's dial
     */
    private RouteDecision route(RouteRequest request, boolean mayLookUp) {
        if (request.attempt() == 1 && !access.allowRate(request.client())) {
            return new RouteDecision.Rejected(429, GatewayErrors.RATE_LIMITED, "none");
        }
        String denied = access.denyDestination(request.host(), request.port(), request.tunnel());
        if (denied != null) {
            return new RouteDecision.Rejected(403, GatewayErrors.DESTINATION_DENIED, "none");
        }
        RoutingRule rule = engine.route(new Facts(request));
        if (rule == null) {
            return new RouteDecision.Rejected(503, GatewayErrors.NO_ROUTE, "none");
        }
        if (!retryRules
                .computeIfAbsent(rule.name(), n -> new RetryRule(rule.retry()))
                .admit(request.attempt())) {
            // no retry left: the wire layer answers with the failure of the last attempt
            return new RouteDecision.Rejected(503, GatewayErrors.NO_CANDIDATE, rule.name());
        }
        AccessControl.Options options = access.options(request.client(), request.headers());
        String session =
                sessionOf(options, request.headers().first(rule.sticky().header()));
        if (session == null) { // design S1: guessing between two ids would pin the wrong one
            return new RouteDecision.Rejected(400, GatewayErrors.SESSION_CONFLICT, rule.name());
        }
        String hashKey = "";
        if (!rule.hashKey().isTargetHost()) {
            String v = request.headers().first(rule.hashKey().header());
            hashKey = v == null ? "" : v;
        }
        // the sticky-session header is the gateway's to read, not the destination's (docs/design.md#gateway-flow, G5)
        String consumed = rule.sticky().enabled() ? rule.sticky().header() : null;
        AcquireRequest acquire = new AcquireRequest(
                request.client(),
                rule.sticky().enabled() ? session : "",
                request.host(),
                hashKey,
                request.triedProxyIds(),
                options.labels());
        return switch (engine.acquire(rule, acquire)) {
            case AcquireResult.Acquired a -> {
                InetAddress resolved = null;
                boolean lookUpLater = false;
                if (resolution.test(a.lease().proxy()) && !mayLookUp && access.looksUp(request.host())) {
                    lookUpLater = true; // PoolAttempt.dial, off the loop
                } else if (resolution.test(a.lease().proxy())) {
                    // this proxy resolves on a network of ours: resolve here, check every address, send it the
                    // checked one (no second lookup that could answer differently: no DNS rebinding)
                    try {
                        resolved = access.resolveForDirect(request.host(), request.port(), request.tunnel());
                    } catch (AccessControl.DestinationDenied e) {
                        a.lease().close(); // nothing was tried: no health report
                        yield new RouteDecision.Rejected(403, GatewayErrors.DESTINATION_DENIED, rule.name());
                    } catch (UnknownHostException e) {
                        a.lease().close();
                        yield new RouteDecision.Rejected(502, GatewayErrors.UPSTREAM_FAILED, rule.name());
                    }
                }
                inFlight.incrementAndGet();
                yield new PoolAttempt(a.lease(), request, resolved, lookUpLater, dialer, this, ticker, consumed);
            }
            case AcquireResult.Rejected r ->
                r.reason().equals(AcquireResult.Rejected.SESSION_LOST)
                        ? new RouteDecision.Rejected(502, GatewayErrors.SESSION_LOST, rule.name())
                        : new RouteDecision.Rejected(503, GatewayErrors.NO_CANDIDATE, rule.name());
            case AcquireResult.Direct d -> {
                if (!mayLookUp && access.looksUp(request.host())) {
                    inFlight.incrementAndGet();
                    yield new DirectAttempt(rule.name(), request, null, true, this, consumed); // looked up in dial
                }
                InetAddress address;
                try { // resolved and checked once, here, so a denial is a 403 like any other
                    address = access.resolveForDirect(request.host(), request.port(), request.tunnel());
                } catch (AccessControl.DestinationDenied e) {
                    yield new RouteDecision.Rejected(403, GatewayErrors.DESTINATION_DENIED, rule.name());
                } catch (UnknownHostException e) {
                    address = null; // the attempt fails as upstream_failed (502), as a refused connect would
                }
                inFlight.incrementAndGet();
                yield new DirectAttempt(rule.name(), request, address, false, this, consumed);
            }
        };
    }

    /**
     * The request's session id from the username and the routing's session header (docs/design.md#sticky-sessions,
     * S1): either one, or both naming the same id; {@code null} when they name different ones (a
     * {@link SessionChoice.Conflict}). A header the username could not carry (a dash, over 64
     * characters) is still taken as given when the username names no session, as it always was;
     * with one it can only differ, so it conflicts.
     */
    private static String sessionOf(AccessControl.Options options, String header) {
        if (header == null) {
            return options.sessionId(); // the common case allocates nothing
        }
        Optional<String> fromName = options.sessionId().isEmpty() ? Optional.empty() : Optional.of(options.sessionId());
        return switch (SessionChoice.of(new UsernameOptions("-", fromName, LabelSelector.ANY), header)) {
            case SessionChoice.None n -> "";
            case SessionChoice.Session s -> s.id();
            case SessionChoice.Conflict c -> null;
            case SessionChoice.Invalid i -> fromName.isPresent() ? null : header.strip();
        };
    }

    /**
     * A destination lookup an attempt was left by {@link #routeWithoutLookup}: resolved once, every
     * address checked, as {@link #route} does it.
     *
     * @return the checked address, or null when the name does not resolve and {@code unresolvedIsNull}
     * @throws RouteRefusedException 403 when the policy denies it, 502 when it does not resolve
     */
    InetAddress lookUp(RouteRequest request, String routing, boolean unresolvedIsNull) throws RouteRefusedException {
        try {
            return access.resolveForDirect(request.host(), request.port(), request.tunnel());
        } catch (AccessControl.DestinationDenied e) {
            throw new RouteRefusedException(new RouteDecision.Rejected(403, GatewayErrors.DESTINATION_DENIED, routing));
        } catch (UnknownHostException e) {
            if (unresolvedIsNull) {
                return null;
            }
            throw new RouteRefusedException(new RouteDecision.Rejected(502, GatewayErrors.UPSTREAM_FAILED, routing));
        }
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    void completed() {
        inFlight.decrementAndGet();
    }

    /** Closes every pooled upstream connection (on stop). */
    public void closeIdle() {
        IdleUpstreams.close(id -> true);
    }

    public PoolEngine pool() {
        return engine;
    }

    /** The wire request as the routing table sees it, without copying headers. */
    private record Facts(RouteRequest r) implements RequestFacts {
        @Override
        public String client() {
            return r.client();
        }

        @Override
        public String host() {
            return r.host();
        }

        @Override
        public int port() {
            return r.port();
        }

        @Override
        public String method() {
            return r.method();
        }

        @Override
        public String header(String lowerCaseName) {
            return r.headers().first(lowerCaseName.toLowerCase(Locale.ROOT));
        }
    }
}
