package dev.proxypool.sdk.remote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import dev.proxypool.sdk.rest.ErrorBody;
import dev.proxypool.sdk.rest.ExtractedProxyBody;
import dev.proxypool.sdk.rest.ExtractionRequestBody;
import dev.proxypool.sdk.rest.ExtractionResponseBody;
import dev.proxypool.sdk.rest.LeaseBody;
import dev.proxypool.sdk.rest.LeaseRequestBody;
import dev.proxypool.sdk.rest.ListedProxyBody;
import dev.proxypool.sdk.rest.ProxyListBody;
import dev.proxypool.sdk.rest.ReleaseReceiptBody;
import dev.proxypool.sdk.rest.ReleaseRequestBody;
import dev.proxypool.sdk.rest.RestJson;
import dev.proxypool.sdk.rest.SelectionBody;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The remote client's side of the REST bodies ({@code dev.proxypool.sdk.rest}, the records the
 * server writes and reads): builds a request body from the SDK's request types, turns a {@code 200}
 * body into the SDK's result types and an error body into its {@link DistributionException}.
 * Reading is lenient about unknown fields (a newer server may add some) and strict about the ones
 * it needs.
 */
final class RemoteJson {

    private RemoteJson() {}

    /** A body that is not what the contract says; becomes {@link DistributionException.UnexpectedResponse}. */
    static final class Malformed extends Exception {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The request body: count, fulfillment, filter (protocol, upstream, labels), minRemainingTtlSeconds
     * (whole seconds, rounded down).
     *
     * @throws IllegalArgumentException for a {@code maxHealthAge}, which the API has no field for
     */
    static byte[] requestBody(Extraction extraction) {
        ExtractionRequest call = extraction.toRequest(0);
        if (!call.maxHealthAge().isZero()) {
            throw new IllegalArgumentException(
                    "maxHealthAge is not part of the Distribution API (in process only:" + " ProxyPool.extract)");
        }
        long minRemainingTtlSeconds = call.minRemainingTtl().toSeconds();
        ExtractionFilter f = call.filter();
        SelectionBody filter = f.isAny()
                ? null
                : selection(f.protocol(), f.upstream(), f.labels().required());
        return bytes(new ExtractionRequestBody(
                (long) call.count(),
                call.fulfillment().wireName(),
                filter,
                minRemainingTtlSeconds > 0 ? minRemainingTtlSeconds : null));
    }

    private static SelectionBody selection(
            Optional<Protocol> protocol, Optional<String> upstream, Map<String, String> labels) {
        return new SelectionBody(
                protocol.map(Protocol::wireName).orElse(null),
                null,
                null,
                null,
                null,
                upstream.orElse(null),
                labels.isEmpty() ? null : new TreeMap<>(labels));
    }

    /** A {@code 200} body. */
    static ExtractionResponse response(byte[] body, boolean replayed) throws Malformed {
        ExtractionResponseBody b = bind(body, ExtractionResponseBody.class);
        List<ExtractedProxyView> proxies = new ArrayList<>();
        for (ExtractedProxyBody v : proxies(b.proxies())) {
            proxies.add(proxy(v));
        }
        try {
            return new ExtractionResponse(
                    need(b.requested(), "requested"), need(b.extracted(), "extracted"), proxies, replayed);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    private static ExtractedProxyView proxy(ExtractedProxyBody o) throws Malformed {
        Optional<Instant> expiresAt = Optional.empty();
        if (o.expiresAt() != null) {
            try {
                expiresAt = Optional.of(Instant.parse(o.expiresAt()));
            } catch (DateTimeParseException e) {
                throw new Malformed("proxy expiresAt is not an ISO-8601 instant");
            }
        }
        OptionalLong remaining =
                o.remainingTtlSeconds() == null ? OptionalLong.empty() : OptionalLong.of(o.remainingTtlSeconds());
        try {
            return new ExtractedProxyView(
                    need(o.id(), "id"),
                    need(o.url(), "url"),
                    protocol(o.protocol()),
                    need(o.host(), "host"),
                    need(o.port(), "port"),
                    labels(o.labels()),
                    expiresAt,
                    remaining);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    /** The body of {@code POST /v1/proxy/acquire}. */
    static byte[] acquireBody(LeaseRequest r) {
        SelectionBody filter = r.protocol().isPresent()
                        || r.upstream().isPresent()
                        || !r.labels().isEmpty()
                ? selection(r.protocol(), r.upstream(), r.labels())
                : null;
        return bytes(new LeaseRequestBody(
                r.host().orElse(null),
                r.key().orElse(null),
                r.routing().orElse(null),
                filter,
                r.session().orElse(null),
                r.hold().map(Duration::toSeconds).orElse(null)));
    }

    /** The body of {@code POST /v1/proxy/release}. */
    static byte[] releaseBody(LeaseOutcome o) {
        return bytes(new ReleaseRequestBody(
                o.leaseId(),
                o.outcome(),
                o.latency().map(Duration::toMillis).orElse(null),
                o.bannedDomain().orElse(null)));
    }

    /** The query of {@code GET /v1/proxy/list} for a selection, percent-encoded, starting with '?' (or ""). */
    static String listQuery(LeaseRequest r, int limit) {
        StringBuilder q = new StringBuilder();
        r.routing().ifPresent(v -> param(q, "routing", v));
        r.host().ifPresent(v -> param(q, "host", v));
        r.upstream().ifPresent(v -> param(q, "upstream", v));
        r.protocol().ifPresent(v -> param(q, "protocol", v.wireName()));
        new TreeMap<>(r.labels()).forEach((k, v) -> param(q, "label." + k, v));
        param(q, "limit", Integer.toString(limit));
        return q.toString();
    }

    private static void param(StringBuilder q, String name, String value) {
        q.append(q.isEmpty() ? '?' : '&')
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    /** A {@code 200} acquire body. */
    static RemoteLease lease(byte[] body, boolean replayed) throws Malformed {
        LeaseBody o = bind(body, LeaseBody.class);
        try {
            return new RemoteLease(
                    need(o.leaseId(), "leaseId"),
                    need(o.state(), "state"),
                    need(o.proxyId(), "proxyId"),
                    need(o.url(), "url"),
                    protocol(o.protocol()),
                    need(o.host(), "host"),
                    need(o.port(), "port"),
                    need(o.upstream(), "upstream"),
                    need(o.routing(), "routing"),
                    labels(o.labels()),
                    Optional.ofNullable(o.session()),
                    instant(o.acquiredAt(), "acquiredAt"),
                    instant(o.expiresAt(), "expiresAt"),
                    replayed);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new Malformed(String.valueOf(e.getMessage()));
        }
    }

    /** A {@code 200} release body. */
    static ReleaseReceipt receipt(byte[] body) throws Malformed {
        ReleaseReceiptBody o = bind(body, ReleaseReceiptBody.class);
        return new ReleaseReceipt(
                need(o.leaseId(), "leaseId"),
                need(o.outcome(), "outcome"),
                Boolean.TRUE.equals(o.alreadyReleased()),
                o.heldMs() == null ? OptionalLong.empty() : OptionalLong.of(o.heldMs()));
    }

    /** A {@code 200} list body. */
    static List<AcquirableProxy> listed(byte[] body) throws Malformed {
        ProxyListBody root = bind(body, ProxyListBody.class);
        List<AcquirableProxy> out = new ArrayList<>();
        for (ListedProxyBody o : proxies(root.proxies())) {
            out.add(new AcquirableProxy(
                    need(o.id(), "id"),
                    protocol(o.protocol()),
                    need(o.host(), "host"),
                    need(o.port(), "port"),
                    need(o.upstream(), "upstream"),
                    labels(o.labels()),
                    Optional.ofNullable(o.state()),
                    need(o.inFlight(), "inFlight"),
                    need(o.maxConcurrency(), "maxConcurrency"),
                    Boolean.TRUE.equals(o.acquirable()),
                    o.expiresAt() == null ? Optional.empty() : Optional.of(instant(o.expiresAt(), "expiresAt"))));
        }
        return out;
    }

    private static Protocol protocol(String wireName) throws Malformed {
        try {
            return Protocol.parse(need(wireName, "protocol"));
        } catch (IllegalArgumentException e) {
            throw new Malformed("proxy protocol: " + e.getMessage());
        }
    }

    private static Map<String, String> labels(Map<String, String> labels) {
        Map<String, String> out = new TreeMap<>();
        if (labels != null) {
            labels.forEach((k, v) -> {
                if (v != null) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    private static Instant instant(String value, String key) throws Malformed {
        try {
            return Instant.parse(need(value, key));
        } catch (DateTimeParseException e) {
            throw new Malformed("'" + key + "' is not an ISO-8601 instant");
        }
    }

    /**
     * The exception for an error response.
     *
     * @param retryAfterHeader the {@code Retry-After} header in seconds, or -1
     */
    static DistributionException error(int status, byte[] body, long retryAfterHeader) {
        ErrorBody o;
        try {
            o = bind(body, ErrorBody.class);
        } catch (Malformed e) {
            return new DistributionException.UnexpectedResponse(status, "", e.getMessage());
        }
        String code = o.error() == null ? "" : o.error();
        String message = o.message() != null ? o.message() : code.isEmpty() ? "no message" : code;
        return switch (status) {
            case 400, 413 -> new DistributionException.InvalidRequest(status, message);
            case 401, 403 -> new DistributionException.Unauthorized(status, message);
            case 409 ->
                switch (code) {
                    case "insufficient_proxies" ->
                        new DistributionException.InsufficientProxies(orZero(o.requested()), orZero(o.available()));
                    case "request_in_progress" -> new DistributionException.RequestInProgress();
                    case "session_lost" -> new DistributionException.NothingToLease(status, code, message);
                    case "lease_expired" -> new DistributionException.UnknownLease(status, code, message);
                    default -> new DistributionException.UnexpectedResponse(status, code, message);
                };
            case 404 ->
                code.equals("unknown_lease")
                        ? new DistributionException.UnknownLease(status, code, message)
                        : new DistributionException.UnexpectedResponse(status, code, message);
            case 422 -> new DistributionException.IdempotencyMismatch();
            case 429 ->
                new DistributionException.QuotaExceeded(
                        message,
                        orZero(o.limit()),
                        orZero(o.used()),
                        Duration.ofSeconds(Math.max(
                                0,
                                o.retryAfterSeconds() != null
                                        ? o.retryAfterSeconds()
                                        : Math.max(0, retryAfterHeader))));
            case 503 ->
                switch (code) {
                    case "store_unavailable" -> new DistributionException.StoreUnavailable();
                    case "credentials_unavailable" -> new DistributionException.CredentialsUnavailable(message);
                    case "no_candidate", "no_route" -> new DistributionException.NothingToLease(status, code, message);
                    default -> new DistributionException.UnexpectedResponse(status, code, message);
                };
            default -> new DistributionException.UnexpectedResponse(status, code, message);
        };
    }

    private static int orZero(Integer n) {
        return n == null ? 0 : n;
    }

    private static byte[] bytes(Record body) {
        return JsonCodec.write(body).getBytes(StandardCharsets.UTF_8);
    }

    /** An answer bound to its record; a body that is not a JSON object, or a value that does not fit, is malformed. */
    private static <T extends Record> T bind(byte[] body, Class<T> type) throws Malformed {
        try {
            return RestJson.lenient(object(body), type);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    /** An answer's {@code proxies}: a list without null entries. */
    private static <T> List<T> proxies(List<T> list) throws Malformed {
        if (list == null) {
            throw new Malformed("'proxies' is not a list");
        }
        for (T entry : list) {
            if (entry == null) {
                throw new Malformed("an entry of 'proxies' is not an object");
            }
        }
        return list;
    }

    private static <T> T need(T value, String key) throws Malformed {
        if (value == null) {
            throw new Malformed("'" + key + "' is missing");
        }
        return value;
    }

    private static JsonNode object(byte[] body) throws Malformed {
        JsonNode v;
        try {
            v = JsonCodec.read(body, JsonCodec.Nesting.FEED);
        } catch (MalformedJsonException e) {
            throw new Malformed("the body is not JSON" + (body.length == 0 ? " (empty)" : ""));
        }
        if (!v.isObject()) {
            throw new Malformed("the body is a JSON " + JsonCodec.typeName(v) + ", not an object");
        }
        return v;
    }
}
