package dev.proxypool.server.api.lease;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RequestFacts;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.rest.ErrorBody;
import dev.proxypool.sdk.rest.LeaseBody;
import dev.proxypool.sdk.rest.ListedProxyBody;
import dev.proxypool.sdk.rest.ProxyListBody;
import dev.proxypool.sdk.rest.ReleaseReceiptBody;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.api.distribution.BearerAuth;
import dev.proxypool.server.api.distribution.ProxyUrl;
import dev.proxypool.server.api.distribution.RequestBody;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.service.registry.Services;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The remote acquire/release API (docs/api.md, "Leases"), registered at {@value #PATH}:
 *
 * <pre>
 * POST /v1/proxy/acquire    Authorization: Bearer &lt;client token&gt;   [Idempotency-Key: k]
 *   {"host": "shop.example", "key": "sku-1", "routing": "shop", "session": "s1", "holdSeconds": 120,
 *    "filter": {"protocol": "http", "upstream": "vendor", "country": "US", "labels": {"kind": "dc"}}}
 *   200 {"leaseId", "state": "held", "proxyId", "url", "protocol", "host", "port", "upstream", "routing",
 *        "labels", "session", "acquiredAt", "expiresAt", "holdSeconds"}
 *   503 no_candidate / no_route, 409 session_lost, 503 credentials_unavailable, 400, 401, 409/422 (idempotency)
 * POST /v1/proxy/release
 *   {"leaseId", "outcome": "ok" | "abandoned" | &lt;failure kind&gt;, "latencyMs": 120, "bannedDomain": "shop.example"}
 *   200 {"leaseId", "state": "released", "outcome", "alreadyReleased", "heldMs"}
 *   404 unknown_lease, 409 lease_expired
 * GET /v1/proxy/list?routing=&amp;host=&amp;upstream=&amp;protocol=&amp;country=&amp;label.k=v&amp;limit=
 *   200 {"count", "proxies": [{"id", "protocol", "host" (masked), "port", "upstream", "labels", "state",
 *        "inFlight", "maxConcurrency", "acquirable", "expiresAt"}]}
 * </pre>
 *
 * <p>An acquire leases a proxy through the gateway's engine ({@link PoolEngine#acquire}): routing,
 * capacity and health as for one gateway request, the proxy stays in the pool. The lease holds one
 * unit of the proxy's capacity until it is released or, at {@code expiresAt}, expired by the server
 * (counted as {@code lease_expired}). The release's outcome feeds passive health as the gateway's
 * attempt outcome does. The answer's URL carries the proxy's credentials, as an extraction's does;
 * a proxy whose credentials cannot be resolved is never handed out (the lease is given back, 503).
 * The list shows masked addresses only: an address is revealed by acquiring the proxy.
 *
 * <p>Leases live in this process's memory ({@link LeaseBook}). Thread-safe.
 */
public final class ProxyLeaseService implements HttpService, AutoCloseable {

    /** Where the composition registers the service. */
    public static final String PATH = "/v1/proxy";
    /** Where the admin API serves {@link #adminView()}, under {@code /v1/admin}. */
    public static final String ADMIN_PATH = "/proxy-leases";

    static final int MAX_BODY_BYTES = 16 * 1024;
    static final int MAX_LIST = 1000;
    static final int DEFAULT_LIST = 100;
    private static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    private static final HeaderName IDEMPOTENT_REPLAYED = HeaderNames.create("Idempotent-Replayed");
    private static final Set<String> LIST_PARAMS =
            Set.of("routing", "host", "upstream", "protocol", "country", "region", "city", "carrier", "limit");

    private final PoolEngine engine;
    private final CredentialStore credentials;
    private final BearerAuth auth;
    private final InstantSource clock;
    private final Duration hold;
    private final Duration maxHold;
    private final Duration sessionIdle;
    private final LeaseLedger ledger = new LeaseLedger();
    private final LeaseMetrics metrics;
    private final LeaseBook book;

    private ProxyLeaseService(Builder b) {
        this.engine = EmbeddedProxyPool.engineOf(b.pool);
        this.credentials = b.pool.credentials();
        this.auth = b.auth;
        this.clock = engine.wallClock();
        ProxyPoolConfig.Distribution d = b.pool.config().distribution();
        this.hold = d.leaseHold();
        this.maxHold = d.leaseMaxHold();
        this.sessionIdle = d.leaseSessionIdle();
        this.metrics = new LeaseMetrics(b.registry != null ? b.registry : Services.get(MeterRegistry.class));
        this.book = new LeaseBook(ledger, metrics, engine.ticker(), clock, b.sweepEvery);
    }

    /** A service over {@code pool}'s engine, credentials and {@code distribution.lease*} settings. */
    public static Builder builder(ProxyPool pool, BearerAuth auth) {
        return new Builder(pool, auth);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/acquire", this::acquire);
        rules.post("/release", this::release);
        rules.get("/list", this::list);
    }

    /**
     * {@code GET /v1/admin/proxy-leases}: leases held now, totals (acquired, released,
     * {@code lease_expired}, refused), counters per routing and upstream with each release outcome,
     * and the last {@value LeaseLedger#RECENT} acquire/release/expire events, newest first.
     */
    public Handler adminView() {
        return (req, res) -> send(req, res, 200, JsonCodec.write(ledger.view(book.heldCount())));
    }

    /** Leases expired by the server so far. */
    public long expiredCount() {
        return ledger.expiredTotal();
    }

    /** Leases held now. */
    public int heldCount() {
        return book.heldCount();
    }

    LeaseBook book() {
        return book;
    }

    @Override
    public void close() {
        book.close();
    }

    // ---- acquire

    private void acquire(ServerRequest req, ServerResponse res) {
        Optional<String> client = client(req, res);
        if (client.isEmpty()) {
            metrics.acquire("refused");
            return;
        }
        AcquireCall call;
        IdempotencyKey key;
        try {
            key = idempotencyKey(req, client.get());
            call = LeaseJson.acquire(RequestBody.read(req, MAX_BODY_BYTES), hold, maxHold);
        } catch (RequestBody.TooLarge e) {
            tooLarge(req, res);
            return;
        } catch (IllegalArgumentException e) {
            metrics.acquire("refused");
            send(req, res, 400, error("invalid_request", e.getMessage()));
            return;
        }
        if (key == null) {
            Answer a = acquireNow(client.get(), call, null);
            send(req, res, a.status(), a.body());
            return;
        }
        switch (book.claim(key, call)) {
            case LeaseBook.ClaimResult.Claimed c -> {
                Answer a = null;
                try {
                    a = acquireNow(client.get(), call, key);
                } finally {
                    book.settle(key, c.claim(), a == null ? null : a.lease());
                }
                send(req, res, a.status(), a.body());
            }
            case LeaseBook.ClaimResult.Replay r -> {
                metrics.acquire("replayed");
                String body;
                try {
                    body = leaseJson(r.lease(), url(r.lease().lease().proxy()));
                } catch (CredentialsUnavailableException e) {
                    send(
                            req,
                            res,
                            503,
                            error("credentials_unavailable", "the lease's proxy credentials are no longer available"));
                    return;
                }
                res.header(IDEMPOTENT_REPLAYED, "true");
                send(req, res, 200, body);
            }
            case LeaseBook.ClaimResult.InProgress p -> {
                metrics.acquire("refused");
                send(
                        req,
                        res,
                        409,
                        error("request_in_progress", "an acquire with this Idempotency-Key is still running"));
            }
            case LeaseBook.ClaimResult.Mismatch m -> {
                metrics.acquire("refused");
                send(
                        req,
                        res,
                        422,
                        error("idempotency_key_reused", "this Idempotency-Key was used with a different request body"));
            }
        }
    }

    /** One answer; {@code lease} is the lease handed out, null when none was. */
    private record Answer(int status, String body, HeldLease lease) {}

    private Answer acquireNow(String client, AcquireCall call, IdempotencyKey key) {
        Instant now = clock.instant();
        RoutingRule rule;
        if (!call.routing().isEmpty()) {
            rule = engine.routing(call.routing()).orElse(null);
            if (rule == null) {
                metrics.acquire("refused");
                return new Answer(
                        400,
                        error("invalid_request", "routing '" + LeaseJson.echo(call.routing()) + "' is not defined"),
                        null);
            }
        } else {
            rule = engine.route(new Facts(client, call.host()));
            if (rule == null) {
                return refused(client, "-", 503, "no_route", "no routing matches this client and host", now);
            }
        }
        ExtractionFilter f = call.filter();
        AcquireRequest request = new AcquireRequest(
                client,
                call.session(),
                call.host(),
                call.key(),
                List.of(),
                f.labels().required(),
                f.upstream().map(List::of).orElse(List.of()),
                f.protocol().map(Set::of).orElse(Set.of()),
                call.session().isEmpty() ? null : sessionIdle);
        return switch (engine.acquire(rule, request)) {
            case AcquireResult.Acquired a -> handOut(client, call, a.lease(), now, key);
            case AcquireResult.Rejected r ->
                r.reason().equals(AcquireResult.Rejected.SESSION_LOST)
                        ? refused(
                                client,
                                rule.name(),
                                409,
                                "session_lost",
                                "the session's proxy is gone and routing '" + rule.name() + "' keeps sessions strict ("
                                        + r.detail() + ")",
                                now)
                        : refused(
                                client,
                                rule.name(),
                                503,
                                "no_candidate",
                                "no proxy of routing '" + rule.name() + "' qualifies now (" + r.detail() + ")",
                                now);
            case AcquireResult.Direct d ->
                refused(
                        client,
                        rule.name(),
                        503,
                        "no_candidate",
                        "no proxy of routing '" + rule.name() + "' qualifies now (" + d.detail()
                                + "); the routing would connect directly",
                        now);
        };
    }

    private Answer refused(String client, String routing, int status, String code, String message, Instant now) {
        metrics.acquire(code);
        ledger.refused(client, routing, code, now);
        return new Answer(status, error(code, message), null);
    }

    private Answer handOut(String client, AcquireCall call, Lease lease, Instant now, IdempotencyKey key) {
        Proxy p = lease.proxy();
        String url;
        try {
            url = url(p);
        } catch (CredentialsUnavailableException | RuntimeException e) {
            lease.close(); // never handed out without its credentials; nothing to report to health
            System.getLogger(ProxyLeaseService.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            "leased proxy " + p.id() + " at " + AddressMask.mask(p.host())
                                    + " given back: credentials for ref '"
                                    + p.credentialRef().name()
                                    + "' are unavailable");
            return refused(
                    client,
                    lease.routing(),
                    503,
                    "credentials_unavailable",
                    "the chosen proxy's credentials are unavailable; nothing was leased",
                    now);
        }
        lease.connected(); // the client uses it from now on: capacity active, a session binds
        Instant expiresAt = now.plus(call.hold());
        if (p.expires() && p.expiresAt().isBefore(expiresAt)) {
            expiresAt = p.expiresAt(); // a lease never outlives its proxy
        }
        HeldLease h = book.register(client, call, lease, now, expiresAt, key);
        metrics.acquire("ok");
        return new Answer(200, leaseJson(h, url), h);
    }

    private String url(Proxy p) throws CredentialsUnavailableException {
        return p.credentialRef().isPresent()
                ? ProxyUrl.of(p.key(), credentials.resolve(p.credentialRef()))
                : ProxyUrl.of(p.key());
    }

    private static String leaseJson(HeldLease h, String url) {
        Proxy p = h.lease().proxy();
        return JsonCodec.write(new LeaseBody(
                h.id(),
                h.state(),
                p.id(),
                url,
                p.protocol().wireName(),
                p.host(),
                p.port(),
                p.upstream(),
                h.lease().routing(),
                new TreeMap<>(p.labels().values()),
                h.call().session().isEmpty() ? null : h.call().session(),
                h.acquiredAt().toString(),
                h.expiresAt().toString(),
                Duration.between(h.acquiredAt(), h.expiresAt()).toSeconds()));
    }

    // ---- release

    private void release(ServerRequest req, ServerResponse res) {
        Optional<String> client = client(req, res);
        if (client.isEmpty()) {
            return;
        }
        ReleaseCall call;
        try {
            call = LeaseJson.release(RequestBody.read(req, MAX_BODY_BYTES));
        } catch (RequestBody.TooLarge e) {
            tooLarge(req, res);
            return;
        } catch (IllegalArgumentException e) {
            send(req, res, 400, error("invalid_request", e.getMessage()));
            return;
        }
        switch (book.release(client.get(), call)) {
            case LeaseBook.ReleaseResult.Released r -> send(req, res, 200, released(r.lease(), false, r.heldMs()));
            case LeaseBook.ReleaseResult.AlreadyReleased r -> send(req, res, 200, released(r.lease(), true, -1));
            case LeaseBook.ReleaseResult.Expired r -> {
                String message = "lease " + r.lease().id() + " expired at "
                        + r.lease().expiresAt() + " and was released by the server; this outcome was not recorded";
                send(
                        req,
                        res,
                        409,
                        JsonCodec.write(new ErrorBody(
                                "lease_expired",
                                message,
                                null,
                                null,
                                null,
                                null,
                                null,
                                r.lease().id(),
                                r.lease().expiresAt().toString())));
            }
            case LeaseBook.ReleaseResult.Unknown u ->
                send(
                        req,
                        res,
                        404,
                        error(
                                "unknown_lease",
                                "no lease '" + call.leaseId()
                                        + "' of this client is held here (leases live on the server process that issued them)"));
        }
    }

    private static String released(HeldLease h, boolean already, long heldMs) {
        return JsonCodec.write(
                new ReleaseReceiptBody(h.id(), h.state(), h.ended().outcome(), already, heldMs < 0 ? null : heldMs));
    }

    // ---- list

    private void list(ServerRequest req, ServerResponse res) {
        Optional<String> client = client(req, res);
        if (client.isEmpty()) {
            return;
        }
        ExtractionFilter filter;
        RoutingRule rule;
        int limit = DEFAULT_LIST;
        String host;
        try {
            var q = req.query();
            for (String name : q.names()) {
                if (!LIST_PARAMS.contains(name) && !name.startsWith("label.")) {
                    throw new IllegalArgumentException(
                            "unknown query parameter '" + LeaseJson.echo(name)
                                    + "' (expected routing, host, upstream, protocol, country, region, city, carrier, label.<key>, limit)");
                }
                if (q.all(name).size() > 1) {
                    throw new IllegalArgumentException("query parameter '" + LeaseJson.echo(name) + "' is given twice");
                }
            }
            ExtractionFilter.Builder fb = ExtractionFilter.builder();
            if (q.contains("protocol")) {
                String v = q.get("protocol");
                try {
                    fb.protocol(Protocol.parse(v));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "protocol must be http, https, socks4 or socks5, got '" + LeaseJson.echo(v) + "'");
                }
            }
            if (q.contains("upstream")) {
                fb.upstream(q.get("upstream"));
            }
            for (String named : List.of(
                    ExtractionFilter.COUNTRY,
                    ExtractionFilter.REGION,
                    ExtractionFilter.CITY,
                    ExtractionFilter.CARRIER)) {
                if (q.contains(named)) {
                    fb.label(named, q.get(named));
                }
            }
            for (String name : q.names()) {
                if (name.startsWith("label.")) {
                    fb.label(name.substring("label.".length()), q.get(name));
                }
            }
            filter = fb.build();
            if (q.contains("limit")) {
                try {
                    limit = Integer.parseInt(q.get("limit"));
                } catch (NumberFormatException e) {
                    limit = -1;
                }
                if (limit < 1 || limit > MAX_LIST) {
                    throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIST + ", got '"
                            + LeaseJson.echo(q.get("limit")) + "'");
                }
            }
            host = q.contains("host") ? q.get("host").strip().toLowerCase(Locale.ROOT) : "";
            if (q.contains("routing")) {
                rule = engine.routing(q.get("routing"))
                        .orElseThrow(() -> new IllegalArgumentException(
                                "routing '" + LeaseJson.echo(q.get("routing")) + "' is not defined"));
            } else {
                rule = engine.route(new Facts(client.get(), host));
            }
        } catch (IllegalArgumentException e) {
            send(req, res, 400, error("invalid_request", e.getMessage()));
            return;
        }
        List<ListedProxyBody> out = new ArrayList<>();
        int matching = 0;
        if (rule != null) {
            CandidateFilter rf = rule.filter();
            for (Proxy p : engine.snapshot().proxies()) {
                if (!filter.matches(p) || !allows(rf, p)) {
                    continue;
                }
                matching++;
                if (out.size() < limit) {
                    out.add(listed(p, host));
                }
            }
        }
        send(req, res, 200, JsonCodec.write(new ProxyListBody(rule == null ? null : rule.name(), matching, out)));
    }

    /** Whether the routing's own filter lets {@code p} serve (upstreams, protocols, labels). */
    private static boolean allows(CandidateFilter f, Proxy p) {
        return (f.upstreams().isEmpty() || f.upstreams().contains(p.upstream()))
                && (f.protocols().isEmpty() || f.protocols().contains(p.protocol()))
                && f.labels().matches(p.labels());
    }

    private ListedProxyBody listed(Proxy p, String host) {
        Optional<ProxyRuntime> rt = engine.runtime(p.id());
        HealthState state = rt.map(r -> r.health().state()).orElse(null);
        int inFlight = rt.map(r -> r.capacity().inFlight()).orElse(0);
        int limit = rt.map(r -> r.capacity().limit()).orElse(p.maxConcurrency());
        boolean banned = !host.isEmpty()
                && rt.map(r -> r.health().isBannedFor(host, engine.ticker().read()))
                        .orElse(false);
        return new ListedProxyBody(
                p.id(),
                p.protocol().wireName(),
                AddressMask.mask(p.host()),
                p.port(),
                p.upstream(),
                new TreeMap<>(p.labels().values()),
                state == null ? null : state.name(),
                inFlight,
                limit,
                state == HealthState.HEALTHY && inFlight < limit && !banned,
                p.expires() ? p.expiresAt().toString() : null);
    }

    // ---- shared

    private Optional<String> client(ServerRequest req, ServerResponse res) {
        Optional<String> client = BearerToken.header(req).flatMap(auth::clientFor);
        if (client.isEmpty()) {
            BearerToken.challenge(res);
            send(req, res, 401, error("unauthorized", "a valid client bearer token is required"));
        }
        return client;
    }

    private static IdempotencyKey idempotencyKey(ServerRequest req, String client) {
        List<String> values = req.headers().values(IDEMPOTENCY_KEY);
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new IllegalArgumentException("Idempotency-Key must be given once, got " + values.size());
        }
        return new IdempotencyKey(client, values.getFirst());
    }

    private void tooLarge(ServerRequest req, ServerResponse res) {
        RequestBody.drain(req, 1024 * 1024);
        send(req, res, 413, error("invalid_request", "request body exceeds " + MAX_BODY_BYTES + " bytes"));
    }

    private static String error(String code, String message) {
        return JsonCodec.write(ErrorBody.of(code, message));
    }

    private static void send(ServerRequest req, ServerResponse res, int status, String body) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        if (!req.content().consumed()) {
            res.header(HeaderValues.CONNECTION_CLOSE);
        }
        res.send(body.getBytes(StandardCharsets.UTF_8));
    }

    /** The acquire as the routing table sees it: a CONNECT of {@code client} to {@code host:443}. */
    private record Facts(String client, String host) implements RequestFacts {
        @Override
        public int port() {
            return 443;
        }

        @Override
        public String method() {
            return "CONNECT";
        }

        @Override
        public String header(String lowerCaseName) {
            return null;
        }
    }

    /** Builds the service; defaults: the global meter registry, a sweep every 250 ms. */
    public static final class Builder {
        private final ProxyPool pool;
        private final BearerAuth auth;
        private MeterRegistry registry;
        private Duration sweepEvery = Duration.ofMillis(250);

        private Builder(ProxyPool pool, BearerAuth auth) {
            this.pool = Objects.requireNonNull(pool, "pool");
            this.auth = Objects.requireNonNull(auth, "auth");
        }

        /** Where the metrics go (default {@code Services.get(MeterRegistry.class)}). */
        public Builder meterRegistry(MeterRegistry r) {
            this.registry = Objects.requireNonNull(r, "registry");
            return this;
        }

        /** How often the sweeper looks for leases past their {@code expiresAt} (default 250 ms). */
        public Builder sweepEvery(Duration d) {
            if (d == null || d.toMillis() < 1) {
                throw new IllegalArgumentException("sweepEvery must be at least 1 ms, got " + d);
            }
            this.sweepEvery = d;
            return this;
        }

        public ProxyLeaseService build() {
            return new ProxyLeaseService(this);
        }
    }
}
