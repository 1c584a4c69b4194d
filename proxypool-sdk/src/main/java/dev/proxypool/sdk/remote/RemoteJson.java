package dev.proxypool.sdk.remote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The remote client's JSON, through {@link JsonCodec}: writes a request body, reads a {@code 200} body and maps an error body to its
 * {@link DistributionException}. Reading is lenient about unknown fields (a newer server may add
 * some) and strict about the ones it needs.
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
        return JsonCodec.write(g -> {
                    g.writeStartObject();
                    g.writeNumberField("count", call.count());
                    g.writeStringField("fulfillment", call.fulfillment().wireName());
                    if (!call.filter().isAny()) {
                        g.writeObjectFieldStart("filter");
                        if (call.filter().protocol().isPresent()) {
                            g.writeStringField(
                                    "protocol", call.filter().protocol().get().wireName());
                        }
                        if (call.filter().upstream().isPresent()) {
                            g.writeStringField(
                                    "upstream", call.filter().upstream().get());
                        }
                        Map<String, String> labels = call.filter().labels().required();
                        if (!labels.isEmpty()) {
                            g.writeObjectFieldStart("labels");
                            for (Map.Entry<String, String> e : labels.entrySet()) {
                                g.writeStringField(e.getKey(), e.getValue());
                            }
                            g.writeEndObject();
                        }
                        g.writeEndObject();
                    }
                    if (minRemainingTtlSeconds > 0) {
                        g.writeNumberField("minRemainingTtlSeconds", minRemainingTtlSeconds);
                    }
                    g.writeEndObject();
                })
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A {@code 200} body. */
    static ExtractionResponse response(byte[] body, boolean replayed) throws Malformed {
        JsonNode root = object(body);
        int requested = (int) integer(root, "requested");
        int extracted = (int) integer(root, "extracted");
        JsonNode list = root.get("proxies");
        if (list == null || !list.isArray()) {
            throw new Malformed("'proxies' is not a list");
        }
        List<ExtractedProxyView> proxies = new ArrayList<>(list.size());
        for (JsonNode v : list) {
            if (!v.isObject()) {
                throw new Malformed("an entry of 'proxies' is not an object");
            }
            proxies.add(proxy(v));
        }
        try {
            return new ExtractionResponse(requested, extracted, proxies, replayed);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    private static ExtractedProxyView proxy(JsonNode o) throws Malformed {
        Protocol protocol;
        try {
            protocol = Protocol.parse(string(o, "protocol"));
        } catch (IllegalArgumentException e) {
            throw new Malformed("proxy protocol: " + e.getMessage());
        }
        Map<String, String> labels = new TreeMap<>();
        JsonNode lv = o.get("labels");
        if (lv != null && lv.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = lv.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> x = it.next();
                if (x.getValue().isTextual()) {
                    labels.put(x.getKey(), x.getValue().textValue());
                }
            }
        }
        Optional<Instant> expiresAt = Optional.empty();
        JsonNode ev = o.get("expiresAt");
        if (ev != null && ev.isTextual()) {
            try {
                expiresAt = Optional.of(Instant.parse(ev.textValue()));
            } catch (DateTimeParseException e) {
                throw new Malformed("proxy expiresAt is not an ISO-8601 instant");
            }
        }
        OptionalLong remaining = OptionalLong.empty();
        JsonNode rv = o.get("remainingTtlSeconds");
        if (rv != null && rv.isNumber()) {
            remaining = OptionalLong.of(rv.decimalValue().longValue());
        }
        try {
            return new ExtractedProxyView(
                    string(o, "id"),
                    string(o, "url"),
                    protocol,
                    string(o, "host"),
                    (int) integer(o, "port"),
                    labels,
                    expiresAt,
                    remaining);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    /** The body of {@code POST /v1/proxy/acquire}. */
    static byte[] acquireBody(LeaseRequest r) {
        return JsonCodec.write(g -> {
                    g.writeStartObject();
                    if (r.host().isPresent()) {
                        g.writeStringField("host", r.host().get());
                    }
                    if (r.key().isPresent()) {
                        g.writeStringField("key", r.key().get());
                    }
                    if (r.routing().isPresent()) {
                        g.writeStringField("routing", r.routing().get());
                    }
                    if (r.session().isPresent()) {
                        g.writeStringField("session", r.session().get());
                    }
                    if (r.hold().isPresent()) {
                        g.writeNumberField("holdSeconds", r.hold().get().toSeconds());
                    }
                    if (r.protocol().isPresent()
                            || r.upstream().isPresent()
                            || !r.labels().isEmpty()) {
                        g.writeObjectFieldStart("filter");
                        if (r.protocol().isPresent()) {
                            g.writeStringField("protocol", r.protocol().get().wireName());
                        }
                        if (r.upstream().isPresent()) {
                            g.writeStringField("upstream", r.upstream().get());
                        }
                        if (!r.labels().isEmpty()) {
                            g.writeObjectFieldStart("labels");
                            for (Map.Entry<String, String> e : new TreeMap<>(r.labels()).entrySet()) {
                                g.writeStringField(e.getKey(), e.getValue());
                            }
                            g.writeEndObject();
                        }
                        g.writeEndObject();
                    }
                    g.writeEndObject();
                })
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The body of {@code POST /v1/proxy/release}. */
    static byte[] releaseBody(LeaseOutcome o) {
        return JsonCodec.write(g -> {
                    g.writeStartObject();
                    g.writeStringField("leaseId", o.leaseId());
                    g.writeStringField("outcome", o.outcome());
                    if (o.latency().isPresent()) {
                        g.writeNumberField("latencyMs", o.latency().get().toMillis());
                    }
                    if (o.bannedDomain().isPresent()) {
                        g.writeStringField("bannedDomain", o.bannedDomain().get());
                    }
                    g.writeEndObject();
                })
                .getBytes(StandardCharsets.UTF_8);
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
        JsonNode o = object(body);
        try {
            JsonNode session = o.get("session");
            return new RemoteLease(
                    string(o, "leaseId"),
                    string(o, "state"),
                    string(o, "proxyId"),
                    string(o, "url"),
                    protocol(o),
                    string(o, "host"),
                    (int) integer(o, "port"),
                    string(o, "upstream"),
                    string(o, "routing"),
                    labels(o),
                    session != null && session.isTextual() ? Optional.of(session.textValue()) : Optional.empty(),
                    instant(o, "acquiredAt"),
                    instant(o, "expiresAt"),
                    replayed);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new Malformed(String.valueOf(e.getMessage()));
        }
    }

    /** A {@code 200} release body. */
    static ReleaseReceipt receipt(byte[] body) throws Malformed {
        JsonNode o = object(body);
        JsonNode already = o.get("alreadyReleased");
        JsonNode held = o.get("heldMs");
        return new ReleaseReceipt(
                string(o, "leaseId"),
                string(o, "outcome"),
                already != null && already.asBoolean(false),
                held != null && held.isNumber() ? OptionalLong.of(held.longValue()) : OptionalLong.empty());
    }

    /** A {@code 200} list body. */
    static List<AcquirableProxy> listed(byte[] body) throws Malformed {
        JsonNode root = object(body);
        JsonNode list = root.get("proxies");
        if (list == null || !list.isArray()) {
            throw new Malformed("'proxies' is not a list");
        }
        List<AcquirableProxy> out = new ArrayList<>(list.size());
        for (JsonNode o : list) {
            if (!o.isObject()) {
                throw new Malformed("an entry of 'proxies' is not an object");
            }
            JsonNode state = o.get("state");
            JsonNode expires = o.get("expiresAt");
            out.add(new AcquirableProxy(
                    string(o, "id"),
                    protocol(o),
                    string(o, "host"),
                    (int) integer(o, "port"),
                    string(o, "upstream"),
                    labels(o),
                    state != null && state.isTextual() ? Optional.of(state.textValue()) : Optional.empty(),
                    (int) integer(o, "inFlight"),
                    (int) integer(o, "maxConcurrency"),
                    o.path("acquirable").asBoolean(false),
                    expires != null && expires.isTextual() ? Optional.of(instant(o, "expiresAt")) : Optional.empty()));
        }
        return out;
    }

    private static Protocol protocol(JsonNode o) throws Malformed {
        try {
            return Protocol.parse(string(o, "protocol"));
        } catch (IllegalArgumentException e) {
            throw new Malformed("proxy protocol: " + e.getMessage());
        }
    }

    private static Map<String, String> labels(JsonNode o) {
        Map<String, String> labels = new TreeMap<>();
        JsonNode lv = o.get("labels");
        if (lv != null && lv.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = lv.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> x = it.next();
                if (x.getValue().isTextual()) {
                    labels.put(x.getKey(), x.getValue().textValue());
                }
            }
        }
        return labels;
    }

    private static Instant instant(JsonNode o, String key) throws Malformed {
        try {
            return Instant.parse(string(o, key));
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
        JsonNode o;
        try {
            o = object(body);
        } catch (Malformed e) {
            return new DistributionException.UnexpectedResponse(status, "", e.getMessage());
        }
        String code = text(o, "error", "");
        String message = text(o, "message", code.isEmpty() ? "no message" : code);
        return switch (status) {
            case 400, 413 -> new DistributionException.InvalidRequest(status, message);
            case 401, 403 -> new DistributionException.Unauthorized(status, message);
            case 409 ->
                switch (code) {
                    case "insufficient_proxies" ->
                        new DistributionException.InsufficientProxies(
                                (int) number(o, "requested"), (int) number(o, "available"));
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
                        (int) number(o, "limit"),
                        (int) number(o, "used"),
                        Duration.ofSeconds(Math.max(
                                0,
                                o.has("retryAfterSeconds")
                                        ? number(o, "retryAfterSeconds")
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

    /** A string field, or {@code fallback} when absent or not a string. */
    private static String text(JsonNode o, String key, String fallback) {
        JsonNode v = o.get(key);
        return v != null && v.isTextual() ? v.textValue() : fallback;
    }

    /** A number field as a long (fractions cut), or 0 when absent or not a number. */
    private static long number(JsonNode o, String key) {
        JsonNode v = o.get(key);
        return v != null && v.isNumber() ? v.decimalValue().longValue() : 0;
    }

    private static String string(JsonNode o, String key) throws Malformed {
        JsonNode v = o.get(key);
        if (v == null || !v.isTextual()) {
            throw new Malformed("'" + key + "' is missing or not a string");
        }
        return v.textValue();
    }

    private static long integer(JsonNode o, String key) throws Malformed {
        JsonNode v = o.get(key);
        if (v == null || !v.isNumber()) {
            throw new Malformed("'" + key + "' is missing or not a number");
        }
        BigDecimal n = v.decimalValue();
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            throw new Malformed("'" + key + "' is not an integer");
        }
    }
}
