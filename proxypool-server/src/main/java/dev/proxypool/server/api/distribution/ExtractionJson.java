package dev.proxypool.server.api.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Distribution API's JSON, through {@link JsonCodec}: reads the request body into a
 * {@link ParsedExtraction}, writes every response body and the canonical form that idempotency
 * fingerprints.
 *
 * <p>Reading is strict: unknown keys, wrong types, fractions, out-of-range numbers, trailing data,
 * a key given twice and nesting deeper than {@link JsonCodec.Nesting#REQUEST} allows are refused
 * with a message naming the field. Optional fields may be {@code null} (= absent).
 */
final class ExtractionJson {

    /** Largest {@code minRemainingTtlSeconds}: ten years. */
    static final long MAX_MIN_TTL_SECONDS = 10L * 366 * 24 * 3600;

    private static final Set<String> TOP = Set.of("count", "fulfillment", "filter", "minRemainingTtlSeconds");
    private static final Set<String> FILTER =
            Set.of("protocol", "country", "region", "city", "carrier", "upstream", "labels");
    private static final int ECHO_MAX = 64;

    private ExtractionJson() {}

    /**
     * Parses and validates a request body.
     *
     * @param maxCount the largest {@code count} allowed (config {@code distribution.maxCount})
     */
    static ParsedExtraction parse(byte[] body, int maxCount) throws InvalidRequestException {
        return read(parseObject(body), maxCount);
    }

    private static ParsedExtraction read(JsonNode root, int maxCount) throws InvalidRequestException {
        for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!TOP.contains(key)) {
                throw new InvalidRequestException("unknown field '" + echo(key)
                        + "' (expected count, fulfillment, filter, minRemainingTtlSeconds)");
            }
        }
        JsonNode countValue = root.get("count");
        if (countValue == null || countValue.isNull()) {
            throw new InvalidRequestException("count is required (1.." + maxCount + ")");
        }
        int count = (int) integer("count", countValue, 1, maxCount);

        Fulfillment fulfillment = Fulfillment.PARTIAL;
        String f = optionalString(root, "fulfillment");
        if (f != null) {
            try {
                fulfillment = Fulfillment.parse(f);
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("fulfillment must be partial or allOrNothing, got '" + echo(f) + "'");
            }
        }

        long minTtl = 0;
        JsonNode ttl = root.get("minRemainingTtlSeconds");
        if (ttl != null && !ttl.isNull()) {
            minTtl = integer("minRemainingTtlSeconds", ttl, 0, MAX_MIN_TTL_SECONDS);
        }

        return new ParsedExtraction(count, fulfillment, filterObject(root.get("filter")), minTtl);
    }

    /** The {@code filter} value: absent or {@code null} is any proxy, else an object of filter terms. */
    static ExtractionFilter filterObject(JsonNode fv) throws InvalidRequestException {
        if (fv == null || fv.isNull()) {
            return ExtractionFilter.ANY;
        }
        if (!fv.isObject()) {
            throw new InvalidRequestException("filter must be an object, got " + typeName(fv));
        }
        return filter(fv);
    }

    private static ExtractionFilter filter(JsonNode o) throws InvalidRequestException {
        for (Iterator<String> keys = o.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!FILTER.contains(key)) {
                throw new InvalidRequestException("unknown field 'filter." + echo(key)
                        + "' (expected protocol, country, region, city, carrier, upstream, labels)");
            }
        }
        ExtractionFilter.Builder b = ExtractionFilter.builder();
        try {
            String protocol = optionalString(o, "filter.protocol", "protocol");
            if (protocol != null) {
                try {
                    b.protocol(Protocol.parse(protocol));
                } catch (IllegalArgumentException e) {
                    throw new InvalidRequestException(
                            "filter.protocol must be http, https, socks4 or socks5, got '" + echo(protocol) + "'");
                }
            }
            String upstream = optionalString(o, "filter.upstream", "upstream");
            if (upstream != null) {
                b.upstream(upstream);
            }
            for (String named : List.of(
                    ExtractionFilter.COUNTRY,
                    ExtractionFilter.REGION,
                    ExtractionFilter.CITY,
                    ExtractionFilter.CARRIER)) {
                String v = optionalString(o, "filter." + named, named);
                if (v != null) {
                    b.label(named, v);
                }
            }
            JsonNode labels = o.get("labels");
            if (labels != null && !labels.isNull()) {
                if (!labels.isObject()) {
                    throw new InvalidRequestException(
                            "filter.labels must be an object of strings, got " + typeName(labels));
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    String key = e.getKey();
                    JsonNode v = e.getValue();
                    if (!v.isTextual()) {
                        throw new InvalidRequestException(
                                "filter.labels." + echo(key) + " must be a string, got " + typeName(v));
                    }
                    b.label(key, v.textValue());
                }
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            // the builder's messages name the field (filter.country, filter.upstream, ...)
            throw new InvalidRequestException(echoMessage(e.getMessage()));
        }
    }

    private static JsonNode parseObject(byte[] body) throws InvalidRequestException {
        JsonNode value;
        try {
            value = JsonCodec.read(body, JsonCodec.Nesting.REQUEST);
        } catch (MalformedJsonException e) {
            throw new InvalidRequestException(
                    e.reason() == MalformedJsonException.Reason.EMPTY
                            ? "request body is empty (expected a JSON object)"
                            : e.describe("request body"));
        }
        if (!value.isObject()) {
            throw new InvalidRequestException("request body must be a JSON object, got " + typeName(value));
        }
        return value;
    }

    private static long integer(String field, JsonNode v, long min, long max) throws InvalidRequestException {
        if (!v.isNumber()) {
            throw new InvalidRequestException(field + " must be an integer, got " + typeName(v));
        }
        BigDecimal n = v.decimalValue();
        String shown = echo(n.toString());
        if (n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new InvalidRequestException(field + " must be an integer, got " + shown);
        }
        if (n.compareTo(BigDecimal.valueOf(min)) < 0 || n.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new InvalidRequestException(field + " must be between " + min + " and " + max + ", got " + shown);
        }
        return n.longValueExact();
    }

    private static String optionalString(JsonNode o, String key) throws InvalidRequestException {
        return optionalString(o, key, key);
    }

    private static String optionalString(JsonNode o, String field, String key) throws InvalidRequestException {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidRequestException(field + " must be a string, got " + typeName(v));
        }
        return v.textValue();
    }

    /**
     * The canonical form of a call that idempotency fingerprints: every field with its default
     * applied, named filters folded into labels, keys sorted. Two bodies that ask for the same
     * extraction have the same form, however they were spelled.
     */
    static String canonical(ParsedExtraction call) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeNumberField("count", call.count());
            g.writeObjectFieldStart("filter");
            g.writeObjectFieldStart("labels");
            for (Map.Entry<String, String> e : call.filter().labels().required().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeStringField(
                    "protocol", call.filter().protocol().map(Protocol::wireName).orElse(null));
            g.writeStringField("upstream", call.filter().upstream().orElse(null));
            g.writeEndObject();
            g.writeStringField("fulfillment", call.fulfillment().wireName());
            g.writeNumberField("minRemainingTtlSeconds", call.minRemainingTtlSeconds());
            g.writeEndObject();
        });
    }

    /** {@code 200}: {@code {"requested": n, "extracted": m, "proxies": [...]}}. */
    static String extracted(int requested, List<HandedOutProxy> proxies) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeNumberField("requested", requested);
            g.writeNumberField("extracted", proxies.size());
            g.writeArrayFieldStart("proxies");
            for (HandedOutProxy p : proxies) {
                g.writeStartObject();
                g.writeStringField("id", p.id());
                g.writeStringField("url", p.url());
                g.writeStringField("protocol", p.protocol().wireName());
                g.writeStringField("host", p.host());
                g.writeNumberField("port", p.port());
                g.writeObjectFieldStart("labels");
                for (Map.Entry<String, String> e : p.labels().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
                if (p.expiresAt().isPresent()) {
                    g.writeStringField("expiresAt", p.expiresAt().get().toString());
                    g.writeNumberField("remainingTtlSeconds", p.remainingTtlSeconds());
                } else {
                    g.writeNullField("expiresAt");
                    g.writeNullField("remainingTtlSeconds");
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** {@code 409}: {@code {"error": "insufficient_proxies", "requested": n, "available": m}}. */
    static String insufficient(int requested, int available) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeStringField("error", "insufficient_proxies");
            g.writeNumberField("requested", requested);
            g.writeNumberField("available", available);
            g.writeEndObject();
        });
    }

    /** {@code 429}: {@code {"error": "quota_exceeded", "message", "limit", "used", "retryAfterSeconds"}}. */
    static String quotaExceeded(String message, int limit, int used, long retryAfterSeconds) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeStringField("error", "quota_exceeded");
            g.writeStringField("message", message);
            g.writeNumberField("limit", limit);
            g.writeNumberField("used", used);
            g.writeNumberField("retryAfterSeconds", retryAfterSeconds);
            g.writeEndObject();
        });
    }

    /** {@code {"error": code, "message": message}}. */
    static String error(String code, String message) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeStringField("error", code);
            g.writeStringField("message", message);
            g.writeEndObject();
        });
    }

    /** {@code {"error": code}}. */
    static String error(String code) {
        return JsonCodec.write(g -> {
            g.writeStartObject();
            g.writeStringField("error", code);
            g.writeEndObject();
        });
    }

    private static String typeName(JsonNode v) {
        return JsonCodec.typeName(v);
    }

    /** Caller-supplied text shown in an error message, shortened. */
    private static String echo(String s) {
        return s.length() <= ECHO_MAX ? s : s.substring(0, ECHO_MAX) + "...";
    }

    private static String echoMessage(String s) {
        return s == null ? "invalid filter" : s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
