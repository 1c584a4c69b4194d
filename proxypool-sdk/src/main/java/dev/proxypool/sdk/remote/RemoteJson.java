package dev.proxypool.sdk.remote;

import dev.proxypool.core.model.Protocol;
import io.helidon.json.JsonException;
import io.helidon.json.JsonGenerator;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
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
 * The remote client's only contact with the JSON library (Helidon's {@code io.helidon.json}):
 * writes a request body, reads a {@code 200} body and maps an error body to its
 * {@link DistributionException}. Reading is lenient about unknown fields (a newer server may add
 * some) and strict about the ones it needs.
 */
final class RemoteJson {

    private RemoteJson() {
    }

    /** A body that is not what the contract says; becomes {@link DistributionException.UnexpectedResponse}. */
    static final class Malformed extends Exception {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /** The request body: count, fulfillment, filter (protocol, upstream, labels), minRemainingTtlSeconds. */
    static byte[] requestBody(ExtractionCall call) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator g = JsonGenerator.create(out)) {
            g.writeObjectStart();
            g.write("count", call.count());
            g.write("fulfillment", call.fulfillment().wireName());
            if (!call.filter().isAny()) {
                g.writeKey("filter").writeObjectStart();
                call.filter().protocol().ifPresent(p -> g.write("protocol", p.wireName()));
                call.filter().upstream().ifPresent(u -> g.write("upstream", u));
                Map<String, String> labels = call.filter().labels().required();
                if (!labels.isEmpty()) {
                    g.writeKey("labels").writeObjectStart();
                    labels.forEach(g::write);
                    g.writeObjectEnd();
                }
                g.writeObjectEnd();
            }
            if (call.minRemainingTtlSeconds() > 0) {
                g.write("minRemainingTtlSeconds", call.minRemainingTtlSeconds());
            }
            g.writeObjectEnd();
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A {@code 200} body. */
    static ExtractionResponse response(byte[] body, boolean replayed) throws Malformed {
        JsonObject root = object(body);
        int requested = (int) integer(root, "requested");
        int extracted = (int) integer(root, "extracted");
        JsonValue list = root.value("proxies", null);
        if (list == null || list.type() != JsonValueType.ARRAY) {
            throw new Malformed("'proxies' is not a list");
        }
        List<ExtractedProxyView> proxies = new ArrayList<>(list.asArray().size());
        for (JsonValue v : list.asArray().values()) {
            if (v.type() != JsonValueType.OBJECT) {
                throw new Malformed("an entry of 'proxies' is not an object");
            }
            proxies.add(proxy(v.asObject()));
        }
        try {
            return new ExtractionResponse(requested, extracted, proxies, replayed);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    private static ExtractedProxyView proxy(JsonObject o) throws Malformed {
        Protocol protocol;
        try {
            protocol = Protocol.parse(string(o, "protocol"));
        } catch (IllegalArgumentException e) {
            throw new Malformed("proxy protocol: " + e.getMessage());
        }
        Map<String, String> labels = new TreeMap<>();
        JsonValue lv = o.value("labels", null);
        if (lv != null && lv.type() == JsonValueType.OBJECT) {
            JsonObject lo = lv.asObject();
            for (String k : lo.keysAsStrings()) {
                JsonValue x = lo.value(k, null);
                if (x.type() == JsonValueType.STRING) {
                    labels.put(k, x.asString().value());
                }
            }
        }
        Optional<Instant> expiresAt = Optional.empty();
        JsonValue ev = o.value("expiresAt", null);
        if (ev != null && ev.type() == JsonValueType.STRING) {
            try {
                expiresAt = Optional.of(Instant.parse(ev.asString().value()));
            } catch (DateTimeParseException e) {
                throw new Malformed("proxy expiresAt is not an ISO-8601 instant");
            }
        }
        OptionalLong remaining = OptionalLong.empty();
        JsonValue rv = o.value("remainingTtlSeconds", null);
        if (rv != null && rv.type() == JsonValueType.NUMBER) {
            remaining = OptionalLong.of(rv.asNumber().longValue());
        }
        try {
            return new ExtractedProxyView(string(o, "id"), string(o, "url"), protocol, string(o, "host"),
                    (int) integer(o, "port"), labels, expiresAt, remaining);
        } catch (IllegalArgumentException e) {
            throw new Malformed(e.getMessage());
        }
    }

    /**
     * The exception for an error response.
     *
     * @param retryAfterHeader the {@code Retry-After} header in seconds, or -1
     */
    static DistributionException error(int status, byte[] body, long retryAfterHeader) {
        JsonObject o;
        try {
            o = object(body);
        } catch (Malformed e) {
            return new DistributionException.UnexpectedResponse(status, "", e.getMessage());
        }
        String code = o.stringValue("error", "");
        String message = o.stringValue("message", code.isEmpty() ? "no message" : code);
        return switch (status) {
            case 400, 413 -> new DistributionException.InvalidRequest(status, message);
            case 401, 403 -> new DistributionException.Unauthorized(status, message);
            case 409 -> switch (code) {
                case "insufficient_proxies" -> new DistributionException.InsufficientProxies(
                        o.intValue("requested", 0), o.intValue("available", 0));
                case "request_in_progress" -> new DistributionException.RequestInProgress();
                default -> new DistributionException.UnexpectedResponse(status, code, message);
            };
            case 422 -> new DistributionException.IdempotencyMismatch();
            case 429 -> new DistributionException.QuotaExceeded(message, o.intValue("limit", 0), o.intValue("used", 0),
                    Duration.ofSeconds(Math.max(0, o.longValue("retryAfterSeconds", Math.max(0, retryAfterHeader)))));
            case 503 -> switch (code) {
                case "store_unavailable" -> new DistributionException.StoreUnavailable();
                case "credentials_unavailable" -> new DistributionException.CredentialsUnavailable(message);
                default -> new DistributionException.UnexpectedResponse(status, code, message);
            };
            default -> new DistributionException.UnexpectedResponse(status, code, message);
        };
    }

    private static JsonObject object(byte[] body) throws Malformed {
        try {
            JsonValue v = JsonParser.create(body).readJsonValue();
            if (v.type() != JsonValueType.OBJECT) {
                throw new Malformed("the body is a JSON " + v.type().name().toLowerCase(java.util.Locale.ROOT)
                        + ", not an object");
            }
            return v.asObject();
        } catch (JsonException | UncheckedIOException | IllegalStateException e) {
            throw new Malformed("the body is not JSON" + (body.length == 0 ? " (empty)" : ""));
        }
    }

    private static String string(JsonObject o, String key) throws Malformed {
        JsonValue v = o.value(key, null);
        if (v == null || v.type() != JsonValueType.STRING) {
            throw new Malformed("'" + key + "' is missing or not a string");
        }
        return v.asString().value();
    }

    private static long integer(JsonObject o, String key) throws Malformed {
        JsonValue v = o.value(key, null);
        if (v == null || v.type() != JsonValueType.NUMBER) {
            throw new Malformed("'" + key + "' is missing or not a number");
        }
        BigDecimal n = v.asNumber().bigDecimalValue();
        try {
            return n.longValueExact();
        } catch (ArithmeticException e) {
            throw new Malformed("'" + key + "' is not an integer");
        }
    }
}
