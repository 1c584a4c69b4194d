package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.json.JsonNesting;
import dev.proxypool.sdk.json.JsonDuplicateKeys;
import io.helidon.json.JsonException;
import io.helidon.json.JsonGenerator;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The only place of the Distribution API that touches the JSON library (Helidon's
 * {@code io.helidon.json}, marked preview in 4.5): reads the request body into an
 * {@link ExtractionCall}, writes every response body and the canonical form that idempotency
 * fingerprints.
 *
 * <p>Reading is strict: unknown keys, wrong types, fractions, out-of-range numbers, trailing data
 * and nesting deeper than {@value #MAX_DEPTH} levels are refused with a message naming the field.
 * Optional fields may be {@code null} (= absent). A key given twice takes its last value (the
 * parser's rule); the fingerprint is taken from the parsed values, so a replay sees the same thing.
 */
final class ExtractionJson {

    /** Our schema nests three levels (body, filter, labels); the parser recurses, so depth is capped before it runs. */
    static final int MAX_DEPTH = 16;
    /** Largest {@code minRemainingTtlSeconds}: ten years. */
    static final long MAX_MIN_TTL_SECONDS = 10L * 366 * 24 * 3600;

    private static final Set<String> TOP = Set.of("count", "fulfillment", "filter", "minRemainingTtlSeconds");
    private static final Set<String> FILTER = Set.of("protocol", "country", "region", "city", "carrier",
            "upstream", "labels");
    private static final int ECHO_MAX = 64;

    private ExtractionJson() {
    }

    /**
     * Parses and validates a request body.
     *
     * @param maxCount the largest {@code count} allowed (config {@code distribution.maxCount})
     */
    static ExtractionCall parse(byte[] body, int maxCount) throws InvalidRequestException {
        JsonObject root = parseObject(body);
        try {
            return read(root, maxCount);
        } catch (JsonException e) {
            // the parser decodes strings lazily: a key or value with bad UTF-8 or a bad escape fails on first use
            throw new InvalidRequestException("request body is not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    private static ExtractionCall read(JsonObject root, int maxCount) throws InvalidRequestException {
        for (String key : root.keysAsStrings()) {
            if (!TOP.contains(key)) {
                throw new InvalidRequestException("unknown field '" + echo(key)
                        + "' (expected count, fulfillment, filter, minRemainingTtlSeconds)");
            }
        }
        JsonValue countValue = root.value("count", null);
        if (countValue == null || countValue.type() == JsonValueType.NULL) {
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
        JsonValue ttl = root.value("minRemainingTtlSeconds", null);
        if (ttl != null && ttl.type() != JsonValueType.NULL) {
            minTtl = integer("minRemainingTtlSeconds", ttl, 0, MAX_MIN_TTL_SECONDS);
        }

        ExtractionFilter filter = ExtractionFilter.ANY;
        JsonValue fv = root.value("filter", null);
        if (fv != null && fv.type() != JsonValueType.NULL) {
            if (fv.type() != JsonValueType.OBJECT) {
                throw new InvalidRequestException("filter must be an object, got " + typeName(fv));
            }
            filter = filter(fv.asObject());
        }
        return new ExtractionCall(count, fulfillment, filter, minTtl);
    }

    private static ExtractionFilter filter(JsonObject o) throws InvalidRequestException {
        for (String key : o.keysAsStrings()) {
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
                    throw new InvalidRequestException("filter.protocol must be http, https, socks4 or socks5, got '"
                            + echo(protocol) + "'");
                }
            }
            String upstream = optionalString(o, "filter.upstream", "upstream");
            if (upstream != null) {
                b.upstream(upstream);
            }
            for (String named : List.of(ExtractionFilter.COUNTRY, ExtractionFilter.REGION, ExtractionFilter.CITY,
                    ExtractionFilter.CARRIER)) {
                String v = optionalString(o, "filter." + named, named);
                if (v != null) {
                    b.label(named, v);
                }
            }
            JsonValue labels = o.value("labels", null);
            if (labels != null && labels.type() != JsonValueType.NULL) {
                if (labels.type() != JsonValueType.OBJECT) {
                    throw new InvalidRequestException("filter.labels must be an object of strings, got "
                            + typeName(labels));
                }
                JsonObject lo = labels.asObject();
                for (String key : lo.keysAsStrings()) {
                    JsonValue v = lo.value(key, null);
                    if (v.type() != JsonValueType.STRING) {
                        throw new InvalidRequestException("filter.labels." + echo(key) + " must be a string, got "
                                + typeName(v));
                    }
                    b.label(key, v.asString().value());
                }
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            // the builder's messages name the field (filter.country, filter.upstream, ...)
            throw new InvalidRequestException(echoMessage(e.getMessage()));
        }
    }

    private static JsonObject parseObject(byte[] body) throws InvalidRequestException {
        int start = 0;
        while (start < body.length && isSpace(body[start])) {
            start++;
        }
        if (start == body.length) {
            throw new InvalidRequestException("request body is empty (expected a JSON object)");
        }
        if (JsonNesting.depth(body) > MAX_DEPTH) {
            throw new InvalidRequestException("request body nests deeper than " + MAX_DEPTH + " levels");
        }
        JsonValue value;
        try {
            JsonParser parser = JsonParser.create(body);
            value = parser.readJsonValue();
            if (!atEnd(parser)) {
                throw new InvalidRequestException("request body is not valid JSON: data after the top-level value");
            }
        } catch (JsonException | UncheckedIOException | IllegalStateException e) {
            throw new InvalidRequestException("request body is not valid JSON: " + firstLine(e.getMessage()));
        } catch (RuntimeException e) {
            // the preview parser has failed on bad bytes with raw runtime exceptions (an
            // ArrayIndexOutOfBoundsException for a non-ASCII byte after a number): still the body's fault
            throw new InvalidRequestException("request body is not valid JSON: unexpected character");
        }
        String duplicate = JsonDuplicateKeys.problem(body);
        if (duplicate != null) {
            throw new InvalidRequestException(duplicate);
        }
        if (value.type() != JsonValueType.OBJECT) {
            throw new InvalidRequestException("request body must be a JSON object, got " + typeName(value));
        }
        return value.asObject();
    }

    /** True when only whitespace follows the value just read (the parser reports that as an error). */
    private static boolean atEnd(JsonParser parser) {
        if (!parser.hasNext()) {
            return true;
        }
        try {
            parser.nextToken();
            return false;
        } catch (JsonException whitespaceOnly) {
            return true;
        }
    }

    private static long integer(String field, JsonValue v, long min, long max) throws InvalidRequestException {
        if (v.type() != JsonValueType.NUMBER) {
            throw new InvalidRequestException(field + " must be an integer, got " + typeName(v));
        }
        BigDecimal n = v.asNumber().bigDecimalValue();
        String shown = echo(n.toString());
        if (n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new InvalidRequestException(field + " must be an integer, got " + shown);
        }
        if (n.compareTo(BigDecimal.valueOf(min)) < 0 || n.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new InvalidRequestException(field + " must be between " + min + " and " + max + ", got " + shown);
        }
        return n.longValueExact();
    }

    private static String optionalString(JsonObject o, String key) throws InvalidRequestException {
        return optionalString(o, key, key);
    }

    private static String optionalString(JsonObject o, String field, String key) throws InvalidRequestException {
        JsonValue v = o.value(key, null);
        if (v == null || v.type() == JsonValueType.NULL) {
            return null;
        }
        if (v.type() != JsonValueType.STRING) {
            throw new InvalidRequestException(field + " must be a string, got " + typeName(v));
        }
        return v.asString().value();
    }

    /**
     * The canonical form of a call that idempotency fingerprints: every field with its default
     * applied, named filters folded into labels, keys sorted. Two bodies that ask for the same
     * extraction have the same form, however they were spelled.
     */
    static String canonical(ExtractionCall call) {
        return write(g -> {
            g.writeObjectStart();
            g.write("count", call.count());
            g.writeKey("filter").writeObjectStart();
            g.writeKey("labels").writeObjectStart();
            for (Map.Entry<String, String> e : call.filter().labels().required().entrySet()) {
                g.write(e.getKey(), e.getValue());
            }
            g.writeObjectEnd();
            g.writeKey("protocol");
            if (call.filter().protocol().isPresent()) {
                g.write(call.filter().protocol().get().wireName());
            } else {
                g.writeNull();
            }
            g.writeKey("upstream");
            if (call.filter().upstream().isPresent()) {
                g.write(call.filter().upstream().get());
            } else {
                g.writeNull();
            }
            g.writeObjectEnd();
            g.write("fulfillment", call.fulfillment().wireName());
            g.write("minRemainingTtlSeconds", call.minRemainingTtlSeconds());
            g.writeObjectEnd();
        });
    }

    /** {@code 200}: {@code {"requested": n, "extracted": m, "proxies": [...]}}. */
    static String extracted(int requested, List<HandedOutProxy> proxies) {
        return write(g -> {
            g.writeObjectStart();
            g.write("requested", requested);
            g.write("extracted", proxies.size());
            g.writeKey("proxies").writeArrayStart();
            for (HandedOutProxy p : proxies) {
                g.writeObjectStart();
                g.write("id", p.id());
                g.write("url", p.url());
                g.write("protocol", p.protocol().wireName());
                g.write("host", p.host());
                g.write("port", p.port());
                g.writeKey("labels").writeObjectStart();
                for (Map.Entry<String, String> e : p.labels().entrySet()) {
                    g.write(e.getKey(), e.getValue());
                }
                g.writeObjectEnd();
                if (p.expiresAt().isPresent()) {
                    g.write("expiresAt", p.expiresAt().get().toString());
                    g.write("remainingTtlSeconds", p.remainingTtlSeconds());
                } else {
                    g.writeKey("expiresAt").writeNull();
                    g.writeKey("remainingTtlSeconds").writeNull();
                }
                g.writeObjectEnd();
            }
            g.writeArrayEnd();
            g.writeObjectEnd();
        });
    }

    /** {@code 409}: {@code {"error": "insufficient_proxies", "requested": n, "available": m}}. */
    static String insufficient(int requested, int available) {
        return write(g -> g.writeObjectStart().write("error", "insufficient_proxies")
                .write("requested", requested).write("available", available).writeObjectEnd());
    }

    /** {@code 429}: {@code {"error": "quota_exceeded", "message", "limit", "used", "retryAfterSeconds"}}. */
    static String quotaExceeded(String message, int limit, int used, long retryAfterSeconds) {
        return write(g -> g.writeObjectStart().write("error", "quota_exceeded").write("message", message)
                .write("limit", limit).write("used", used).write("retryAfterSeconds", retryAfterSeconds)
                .writeObjectEnd());
    }

    /** {@code {"error": code, "message": message}}. */
    static String error(String code, String message) {
        return write(g -> g.writeObjectStart().write("error", code).write("message", message).writeObjectEnd());
    }

    /** {@code {"error": code}}. */
    static String error(String code) {
        return write(g -> g.writeObjectStart().write("error", code).writeObjectEnd());
    }

    private interface Body {
        void write(JsonGenerator g);
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JsonGenerator.create(out)) {
            body.write(g);
        }
        return out.toString();
    }

    private static String typeName(JsonValue v) {
        return v.type().name().toLowerCase(Locale.ROOT);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** Caller-supplied text shown in an error message, shortened. */
    private static String echo(String s) {
        return s.length() <= ECHO_MAX ? s : s.substring(0, ECHO_MAX) + "...";
    }

    private static String echoMessage(String s) {
        return s == null ? "invalid filter" : s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** The parser's first message line only: later lines dump raw input. */
    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String s = nl < 0 ? message : message.substring(0, nl);
        return s.length() > 120 ? s.substring(0, 120) : s;
    }
}
