package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.limits.QuotaLedger;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.api.BearerToken;
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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code POST /v1/extractions}: exclusive extraction over HTTP (docs/design.md#extraction, docs/api.md). Register it with
 * {@code routing.register(DistributionService.PATH, service)} or {@code routing.post(DistributionService.PATH, service)}.
 *
 * <pre>
 * POST /v1/extractions
 * Authorization: Bearer &lt;client token&gt;
 * Idempotency-Key: 7f0c...                    (optional, at most 255 characters)
 * {"count": 5, "fulfillment": "partial",
 *  "filter": {"protocol": "http", "country": "US", "upstream": "vendor-a-us", "labels": {"type": "residential"}},
 *  "minRemainingTtlSeconds": 60}
 *
 * 200 {"requested": 5, "extracted": 3,
 *      "proxies": [{"id": "...", "url": "http://user:pass@203.0.113.7:8000", "protocol": "http",
 *                   "host": "203.0.113.7", "port": 8000, "labels": {"country": "US"},
 *                   "expiresAt": "2026-11-30T12:00:00Z", "remainingTtlSeconds": 1740}]}
 * 400 {"error": "invalid_request", "message": "count must be between 1 and 1000, got 5000"}
 * 401 {"error": "unauthorized", "message": "..."}            + WWW-Authenticate: Bearer realm="proxypool"
 * 409 {"error": "insufficient_proxies", "requested": 5, "available": 3}      (allOrNothing; nothing extracted)
 * 409 {"error": "request_in_progress", "message": "..."}     (same Idempotency-Key still running)
 * 413 {"error": "invalid_request", "message": "request body exceeds 65536 bytes"}   (+ Connection: close above 1 MiB)
 * 422 {"error": "idempotency_key_reused", "message": "..."}  (same key, different body)
 * 429 {"error": "quota_exceeded", "message": "...", "limit": 1000, "used": 998, "retryAfterSeconds": 1200}
 *                                                            + Retry-After: 1200
 * 503 {"error": "store_unavailable"} + Retry-After: 1        (nothing extracted)
 * 503 {"error": "credentials_unavailable", "message": "..."} (allOrNothing, see below)
 * </pre>
 *
 * <h2>Request</h2>
 * {@code count} is required, 1..{@code distribution.maxCount} (at most 1000). {@code fulfillment}
 * defaults to {@code partial}; {@code filter} and every filter term are optional (country, region,
 * city and carrier are labels of that name); {@code minRemainingTtlSeconds} defaults to 0 (any
 * unexpired proxy). {@code null} counts as absent. Unknown keys, wrong types, fractions and
 * out-of-range numbers are refused with a message naming the field. The body is read up to 64 KiB;
 * a larger one is refused with {@code 413}: read and discarded up to 1 MiB so the client sees the
 * answer on a kept connection, beyond that not read (the connection is then closed). The
 * {@code Content-Type} is not checked.
 *
 * <h2>Order of checks</h2>
 * Token ({@code 401}), {@code Idempotency-Key} syntax and body ({@code 400}/{@code 413}),
 * idempotency ({@code 409}/{@code 422}/replay), quota ({@code 429}), then one atomic
 * {@link PoolStore#extract} that applies the filters, TTL and gateway reserve. Extracted proxies are
 * reported to {@link PoolEngine#extracted} at once so the gateway stops using them.
 *
 * <h2>Quota</h2>
 * Per client, proxies per sliding hour ({@link QuotaLedger}, per process). A partial request with
 * less quota left than its count is lowered to what is left ({@code requested} still shows the
 * asked count); with nothing left it gets {@code 429}. An allOrNothing request gets {@code 429}
 * unless its whole count fits. Only proxies handed out count; replays count nothing.
 *
 * <h2>Credentials</h2>
 * The URL carries the proxy's credentials from the credential store, percent-encoded. A proxy whose
 * {@code credentialRef} cannot be resolved is never handed out without them (docs/design.md#extraction E10, #security X7: fail closed).
 * It has already left the pool (extraction is atomic and irreversible), so it is withheld: counted
 * in {@code proxypool.extraction.withheld} and logged with its id, masked address and ref name.
 * A partial request answers {@code 200} with the others; an allOrNothing request cannot be met and
 * answers {@code 503 credentials_unavailable} with no proxy (the operator must fix the credential
 * file; it is re-read on change). Proxies without a {@code credentialRef} get a URL without userinfo.
 *
 * <h2>Idempotency</h2>
 * With an {@code Idempotency-Key} (namespaced by client) the request is claimed through
 * {@link PoolStore#beginIdempotent} with the SHA-256 of the body's canonical form (defaults applied,
 * named filters folded into labels, keys sorted), so differently spelled bodies asking the same thing
 * match. Outcomes of an extraction ({@code 200}, {@code 409 insufficient_proxies},
 * {@code 503 credentials_unavailable}) are stored and replayed byte-for-byte with
 * {@code Idempotent-Replayed: true}; outcomes where nothing happened ({@code 429}, {@code 503
 * store_unavailable}) release the key so a retry runs. When storing the outcome itself fails, the
 * proxies are still sent and the key stays in progress until the store's in-progress timeout.
 * The retention is the store's ({@code StoreSettings.idempotencyRetention}).
 *
 * <h2>Expiry</h2>
 * {@code expiresAt} (ISO-8601, UTC) and {@code remainingTtlSeconds} (whole seconds, rounded down)
 * are computed against the injected {@link InstantSource} at extraction; both are {@code null} for a
 * proxy that never expires. Every response carries {@code Cache-Control: no-store}.
 *
 * <p>Thread-safe; handlers run on Helidon's virtual threads and block on the store.
 */
public final class DistributionService implements HttpService, Handler {

    /** Where the composition registers the service. */
    public static final String PATH = "/v1/extractions";
    /** Largest accepted request body. */
    public static final int MAX_BODY_BYTES = 64 * 1024;
    /** A refused body up to this size is read and discarded so the client sees the 413; a larger one closes. */
    static final long MAX_DRAINED_BYTES = 1024 * 1024;

    public static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    public static final HeaderName IDEMPOTENT_REPLAYED = HeaderNames.create("Idempotent-Replayed");

    private static final System.Logger LOG = System.getLogger(DistributionService.class.getName());
    private static final String JSON = "application/json";
    /** Retry-After of a 503 store_unavailable: a Redis Cluster promotion takes seconds, a retry each second finds its end. */
    static final long STORE_RETRY_AFTER_SECONDS = 1;

    private final PoolStore store;
    private final PoolEngine engine;
    private final CredentialStore credentials;
    private final BearerAuth auth;
    private final QuotaLedger quotas;
    private final InstantSource clock;
    private final ExtractionMetrics metrics;
    private final int gatewayReserve;
    private final int maxCount;

    private DistributionService(Builder b) {
        this.engine = EmbeddedProxyPool.engineOf(b.pool);
        this.store = engine.store();
        this.credentials = b.pool.credentials();
        this.auth = b.auth;
        this.clock = b.clock != null ? b.clock : engine.wallClock();
        this.quotas = new QuotaLedger(b.quotas, clock);
        this.metrics = new ExtractionMetrics(b.registry != null ? b.registry : Services.get(MeterRegistry.class));
        var distribution = b.pool.config().distribution();
        if (distribution.maxCount() < 1) {
            throw new IllegalArgumentException(
                    "distribution.maxCount must be at least 1, got " + distribution.maxCount());
        }
        if (distribution.gatewayReserve() < 0) {
            throw new IllegalArgumentException(
                    "distribution.gatewayReserve must not be negative, got " + distribution.gatewayReserve());
        }
        this.maxCount = Math.min(distribution.maxCount(), ExtractionRequest.MAX_COUNT);
        this.gatewayReserve = distribution.gatewayReserve();
    }

    /** A service over {@code pool}'s store, engine, credentials and {@code distribution} config. */
    public static Builder builder(ProxyPool pool, BearerAuth auth) {
        return new Builder(pool, auth);
    }

    /**
     * New per-client extraction quotas (client name → proxies per hour, 0 = unlimited), when the
     * client list changed; each client's last hour still counts ({@link QuotaLedger#update}).
     */
    public void updateQuotas(Map<String, Integer> extractionsPerHour) {
        quotas.update(extractionsPerHour);
    }

    /** The quota ledger (inspection and tests). */
    QuotaLedger quotaLedger() {
        return quotas;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this);
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        Optional<String> client = BearerToken.header(req).flatMap(auth::clientFor);
        if (client.isEmpty()) {
            BearerToken.challenge(res);
            send(
                    req,
                    res,
                    new Answer(
                            401,
                            ExtractionJson.error("unauthorized", "a valid bearer token is required"),
                            ExtractionOutcome.UNAUTHORIZED));
            return;
        }
        ParsedExtraction call;
        IdempotencyKey key;
        try {
            key = idempotencyKey(req, client.get());
            call = ExtractionJson.parse(RequestBody.read(req, MAX_BODY_BYTES), maxCount);
        } catch (RequestBody.TooLarge e) {
            RequestBody.drain(req, MAX_DRAINED_BYTES); // when it cannot, send() closes the connection
            send(
                    req,
                    res,
                    new Answer(
                            413,
                            ExtractionJson.error(
                                    "invalid_request", "request body exceeds " + MAX_BODY_BYTES + " bytes"),
                            ExtractionOutcome.INVALID));
            return;
        } catch (InvalidRequestException e) {
            send(
                    req,
                    res,
                    new Answer(
                            400, ExtractionJson.error("invalid_request", e.getMessage()), ExtractionOutcome.INVALID));
            return;
        }
        send(req, res, key == null ? run(client.get(), call) : idempotent(key, call));
    }

    private static IdempotencyKey idempotencyKey(ServerRequest req, String client) throws InvalidRequestException {
        List<String> values = req.headers().values(IDEMPOTENCY_KEY);
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new InvalidRequestException("Idempotency-Key must be given once, got " + values.size());
        }
        try {
            return new IdempotencyKey(client, values.getFirst());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    /** Claims the key, runs the extraction once, stores its outcome; see the class doc. */
    private Answer idempotent(IdempotencyKey key, ParsedExtraction call) {
        String fingerprint = fingerprint(call);
        IdempotencyStart start;
        try {
            start = store.beginIdempotent(key, fingerprint, clock.instant());
        } catch (StoreUnavailableException e) {
            return storeUnavailable(e);
        }
        return switch (start) {
            case IdempotencyStart.Started s -> runClaimed(key, fingerprint, call);
            case IdempotencyStart.InProgress p ->
                new Answer(
                        409,
                        ExtractionJson.error(
                                "request_in_progress", "a request with this Idempotency-Key is still running"),
                        ExtractionOutcome.CONFLICT);
            case IdempotencyStart.Mismatch m ->
                new Answer(
                        422,
                        ExtractionJson.error(
                                "idempotency_key_reused",
                                "this Idempotency-Key was used with a different request body"),
                        ExtractionOutcome.CONFLICT);
            case IdempotencyStart.Replay r -> {
                StoredResponse stored = StoredResponse.decode(r.storedResponse());
                String body;
                try {
                    body = ProxyUrl.restoreCredentials(stored.body(), credentials);
                } catch (CredentialsUnavailableException e) {
                    yield new Answer(
                            503,
                            ExtractionJson.error(
                                    "credentials_unavailable",
                                    "the replayed proxies' credentials are no longer available"),
                            ExtractionOutcome.CREDENTIALS);
                }
                yield new Answer(stored.status(), body, ExtractionOutcome.REPLAYED, 0, false, true);
            }
        };
    }

    private Answer runClaimed(IdempotencyKey key, String fingerprint, ParsedExtraction call) {
        boolean settled = false;
        try {
            Answer a = run(key.client(), call);
            if (a.storable()) {
                settled = true;
                try {
                    if (!store.completeIdempotent(
                            key,
                            fingerprint,
                            new StoredResponse(a.status(), a.storedBody()).encode(),
                            clock.instant())) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "idempotency record of a key was taken over before completion");
                    }
                } catch (StoreUnavailableException e) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "extraction done but its idempotency record could not be stored: " + e.getMessage());
                }
            }
            return a;
        } finally {
            if (!settled) {
                abandon(key, fingerprint);
            }
        }
    }

    private void abandon(IdempotencyKey key, String fingerprint) {
        try {
            store.abandonIdempotent(key, fingerprint);
        } catch (RuntimeException e) {
            // the store's in-progress timeout frees the key
            LOG.log(System.Logger.Level.WARNING, "could not release an idempotency key: " + e.getMessage());
        }
    }

    /** Quota, extraction, credentials: the answer of one call. */
    private Answer run(String client, ParsedExtraction call) {
        boolean all = call.fulfillment() == Fulfillment.ALL_OR_NOTHING;
        QuotaLedger.Decision decision = quotas.reserve(client, call.count(), all ? call.count() : 1);
        QuotaLedger.Granted grant;
        switch (decision) {
            case QuotaLedger.Exceeded e -> {
                return quotaExceeded(call, e);
            }
            case QuotaLedger.Granted g -> grant = g;
        }
        int handedOut = 0;
        try {
            Instant now = clock.instant();
            ExtractionRequest request = call.toRequest(grant.proxies(), gatewayReserve);
            engine.beforeExtraction(request);
            ExtractionResult result = store.extract(request, now);
            return switch (result) {
                case ExtractionResult.Insufficient i ->
                    new Answer(
                            409,
                            ExtractionJson.insufficient(call.count(), i.available()),
                            ExtractionOutcome.INSUFFICIENT,
                            0,
                            true,
                            false);
                case ExtractionResult.Extracted e -> {
                    List<Proxy> gone = new ArrayList<>(e.count());
                    e.proxies().forEach(x -> gone.add(x.proxy()));
                    engine.extracted(gone);
                    List<HandedOutProxy> out = handOut(e.proxies(), now);
                    int withheld = e.count() - out.size();
                    metrics.withheld(withheld);
                    if (withheld > 0 && all) {
                        yield new Answer(
                                503,
                                ExtractionJson.error(
                                        "credentials_unavailable",
                                        withheld
                                                + " of the extracted proxies have no resolvable credentials; none was handed out"),
                                ExtractionOutcome.CREDENTIALS,
                                0,
                                true,
                                false);
                    }
                    handedOut = out.size();
                    List<HandedOutProxy> withoutCredentials = new ArrayList<>(out.size());
                    for (HandedOutProxy h : out) {
                        withoutCredentials.add(h.withUrl(h.storedUrl()));
                    }
                    yield new Answer(
                                    200,
                                    ExtractionJson.extracted(call.count(), out),
                                    handedOut == call.count() ? ExtractionOutcome.OK : ExtractionOutcome.PARTIAL,
                                    handedOut,
                                    true,
                                    false)
                            .storing(ExtractionJson.extracted(call.count(), withoutCredentials));
                }
            };
        } catch (StoreUnavailableException e) {
            return storeUnavailable(e);
        } finally {
            grant.settle(handedOut);
        }
    }

    private static Answer quotaExceeded(ParsedExtraction call, QuotaLedger.Exceeded e) {
        String message = call.count() > e.limit() && call.fulfillment() == Fulfillment.ALL_OR_NOTHING
                ? "count " + call.count() + " exceeds the hourly quota of " + e.limit() + " proxies"
                : "hourly extraction quota of " + e.limit() + " proxies is used up";
        Answer a = new Answer(
                429,
                ExtractionJson.quotaExceeded(message, e.limit(), e.used(), e.retryAfterSeconds()),
                ExtractionOutcome.QUOTA);
        return a.withRetryAfter(e.retryAfterSeconds());
    }

    /**
     * 503 with {@code Retry-After}: an outage of the store (Redis down, a Redis Cluster failover in
     * progress: {@code CLUSTERDOWN}, {@code TRYAGAIN}, a dead master) passes; the client retries.
     */
    private static Answer storeUnavailable(StoreUnavailableException e) {
        LOG.log(System.Logger.Level.WARNING, "extraction refused, store unavailable: " + e.getMessage());
        return new Answer(503, ExtractionJson.error("store_unavailable"), ExtractionOutcome.UNAVAILABLE)
                .withRetryAfter(STORE_RETRY_AFTER_SECONDS);
    }

    /** The response view of each extracted proxy whose credentials resolve; the others are withheld. */
    private List<HandedOutProxy> handOut(List<ExtractedProxy> extracted, Instant now) {
        List<HandedOutProxy> out = new ArrayList<>(extracted.size());
        for (ExtractedProxy x : extracted) {
            Proxy p = x.proxy();
            String url;
            String storedUrl;
            if (p.credentialRef().isPresent()) {
                try {
                    Credentials c = credentials.resolve(p.credentialRef());
                    url = ProxyUrl.of(p.key(), c);
                    storedUrl = ProxyUrl.placeholder(p.key(), p.credentialRef());
                } catch (CredentialsUnavailableException | RuntimeException e) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "extracted proxy " + p.id() + " at " + AddressMask.mask(p.host())
                                    + " withheld: credentials for ref '"
                                    + p.credentialRef().name() + "' are unavailable");
                    continue;
                }
            } else {
                url = ProxyUrl.of(p.key());
                storedUrl = url;
            }
            Optional<Instant> expiresAt = p.expires() ? Optional.of(p.expiresAt()) : Optional.empty();
            long remaining = p.expires()
                    ? Math.max(0, Duration.between(now, p.expiresAt()).getSeconds())
                    : 0;
            out.add(new HandedOutProxy(
                    p.id(),
                    url,
                    p.protocol(),
                    p.host(),
                    p.port(),
                    p.labels().values(),
                    expiresAt,
                    remaining,
                    storedUrl));
        }
        return out;
    }

    private void send(ServerRequest req, ServerResponse res, Answer a) {
        metrics.request(a.outcome());
        metrics.proxies(a.handedOut());
        res.status(a.status());
        res.header(HeaderNames.CONTENT_TYPE, JSON);
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        if (a.replayed()) {
            res.header(IDEMPOTENT_REPLAYED, "true");
        }
        if (a.retryAfterSeconds() > 0) {
            res.header(HeaderNames.RETRY_AFTER, Long.toString(a.retryAfterSeconds()));
        }
        if (!req.content().consumed()) {
            // an unread (possibly huge) body: do not let the server drain it
            res.header(HeaderValues.CONNECTION_CLOSE);
        }
        res.send(a.body().getBytes(StandardCharsets.UTF_8));
    }

    /** SHA-256 (hex) of the call's canonical form: the idempotency fingerprint. */
    static String fingerprint(ParsedExtraction call) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of()
                    .formatHex(sha.digest(ExtractionJson.canonical(call).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /**
     * One response to send.
     *
     * @param handedOut proxies handed out by this very call (0 for a replay)
     * @param storable  an outcome of an extraction, kept for idempotent replay
     */
    private record Answer(
            int status,
            String body,
            ExtractionOutcome outcome,
            int handedOut,
            boolean storable,
            boolean replayed,
            long retryAfterSeconds,
            String storedBody) {

        Answer(int status, String body, ExtractionOutcome outcome) {
            this(status, body, outcome, 0, false, false, 0, body);
        }

        Answer(int status, String body, ExtractionOutcome outcome, int handedOut, boolean storable, boolean replayed) {
            this(status, body, outcome, handedOut, storable, replayed, 0, body);
        }

        Answer withRetryAfter(long seconds) {
            return new Answer(status, body, outcome, handedOut, storable, replayed, seconds, storedBody);
        }

        /** What the idempotency record keeps instead of the body: no credentials (docs/design.md#security X8: none in Redis). */
        Answer storing(String bodyWithoutCredentials) {
            return new Answer(
                    status, body, outcome, handedOut, storable, replayed, retryAfterSeconds, bodyWithoutCredentials);
        }
    }

    /** Builds the service; defaults: the pool's wall clock, no quotas, the global meter registry. */
    public static final class Builder {
        private final ProxyPool pool;
        private final BearerAuth auth;
        private Map<String, Integer> quotas = Map.of();
        private InstantSource clock;
        private MeterRegistry registry;

        private Builder(ProxyPool pool, BearerAuth auth) {
            this.pool = Objects.requireNonNull(pool, "pool");
            this.auth = Objects.requireNonNull(auth, "auth");
        }

        /** Client name → proxies per hour ({@code clients[].quota.extractionsPerHour}); 0 or absent = unlimited. */
        public Builder quotas(Map<String, Integer> extractionsPerHour) {
            this.quotas = Map.copyOf(Objects.requireNonNull(extractionsPerHour, "quotas"));
            return this;
        }

        /** The wall clock of {@code expiresAt}, {@code remainingTtlSeconds}, quotas and idempotency. */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Where the metrics go (default {@code Services.get(MeterRegistry.class)}). */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        public DistributionService build() {
            return new DistributionService(this);
        }
    }
}
