package dev.proxypool.server.api.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import dev.proxypool.sdk.rest.ErrorBody;
import dev.proxypool.sdk.rest.ExtractedProxyBody;
import dev.proxypool.sdk.rest.ExtractionRequestBody;
import dev.proxypool.sdk.rest.ExtractionResponseBody;
import dev.proxypool.sdk.rest.RestJson;
import dev.proxypool.sdk.rest.SelectionBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Distribution API's bodies (the records of {@code dev.proxypool.sdk.rest}, shared with the SDK's
 * client) to and from the server's types: reads the request body into a {@link ParsedExtraction},
 * writes every response body, and writes the canonical form that idempotency fingerprints.
 *
 * <p>Reading is strict ({@link RestJson#strict}): unknown keys, wrong types, fractions, out-of-range
 * numbers, trailing data, a key given twice and nesting deeper than {@link JsonCodec.Nesting#REQUEST}
 * allows are refused with a message naming the field. Optional fields may be {@code null} (= absent).
 */
final class ExtractionJson {

    /** Largest {@code minRemainingTtlSeconds}: ten years. */
    static final long MAX_MIN_TTL_SECONDS = 10L * 366 * 24 * 3600;

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
        ExtractionRequestBody body;
        try {
            body = RestJson.strict(
                    root,
                    ExtractionRequestBody.class,
                    Map.of(
                            "count", new RestJson.Range(1, maxCount),
                            "minRemainingTtlSeconds", new RestJson.Range(0, MAX_MIN_TTL_SECONDS)));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(e.getMessage());
        }
        if (body.count() == null) {
            throw new InvalidRequestException("count is required (1.." + maxCount + ")");
        }
        Fulfillment fulfillment = Fulfillment.PARTIAL;
        String f = body.fulfillment();
        if (f != null) {
            try {
                fulfillment = Fulfillment.parse(f);
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("fulfillment must be partial or allOrNothing, got '" + echo(f) + "'");
            }
        }
        long minTtl = body.minRemainingTtlSeconds() == null ? 0 : body.minRemainingTtlSeconds();
        return new ParsedExtraction(Math.toIntExact(body.count()), fulfillment, filter(body.filter()), minTtl);
    }

    /**
     * The selection of a checked {@code filter} ({@link RestJson#strict} has checked its fields and
     * types): absent is any proxy.
     *
     * @throws InvalidRequestException naming the field whose value is not allowed
     */
    static ExtractionFilter filter(SelectionBody o) throws InvalidRequestException {
        if (o == null) {
            return ExtractionFilter.ANY;
        }
        ExtractionFilter.Builder b = ExtractionFilter.builder();
        try {
            if (o.protocol() != null) {
                try {
                    b.protocol(Protocol.parse(o.protocol()));
                } catch (IllegalArgumentException e) {
                    throw new InvalidRequestException(
                            "filter.protocol must be http, https, socks4 or socks5, got '" + echo(o.protocol()) + "'");
                }
            }
            if (o.upstream() != null) {
                b.upstream(o.upstream());
            }
            label(b, ExtractionFilter.COUNTRY, o.country());
            label(b, ExtractionFilter.REGION, o.region());
            label(b, ExtractionFilter.CITY, o.city());
            label(b, ExtractionFilter.CARRIER, o.carrier());
            if (o.labels() != null) {
                for (Map.Entry<String, String> e : o.labels().entrySet()) {
                    b.label(e.getKey(), e.getValue());
                }
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            // the builder's messages name the field (filter.country, filter.upstream, ...)
            throw new InvalidRequestException(echoMessage(e.getMessage()));
        }
    }

    private static void label(ExtractionFilter.Builder b, String name, String value) {
        if (value != null) {
            b.label(name, value);
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
        List<ExtractedProxyBody> out = new ArrayList<>(proxies.size());
        for (HandedOutProxy p : proxies) {
            boolean expires = p.expiresAt().isPresent();
            out.add(new ExtractedProxyBody(
                    p.id(),
                    p.url(),
                    p.protocol().wireName(),
                    p.host(),
                    p.port(),
                    p.labels(),
                    expires ? p.expiresAt().get().toString() : null,
                    expires ? p.remainingTtlSeconds() : null));
        }
        return JsonCodec.write(new ExtractionResponseBody(requested, proxies.size(), out));
    }

    /** {@code 409}: {@code {"error": "insufficient_proxies", "requested": n, "available": m}}. */
    static String insufficient(int requested, int available) {
        return JsonCodec.write(
                new ErrorBody("insufficient_proxies", null, requested, available, null, null, null, null, null));
    }

    /** {@code 429}: {@code {"error": "quota_exceeded", "message", "limit", "used", "retryAfterSeconds"}}. */
    static String quotaExceeded(String message, int limit, int used, long retryAfterSeconds) {
        return JsonCodec.write(
                new ErrorBody("quota_exceeded", message, null, null, limit, used, retryAfterSeconds, null, null));
    }

    /** {@code {"error": code, "message": message}}. */
    static String error(String code, String message) {
        return JsonCodec.write(ErrorBody.of(code, message));
    }

    /** {@code {"error": code}}. */
    static String error(String code) {
        return JsonCodec.write(ErrorBody.of(code));
    }

    private static String typeName(JsonNode v) {
        return JsonCodec.typeName(v);
    }

    /** Caller-supplied text shown in an error message, shortened. */
    private static String echo(String s) {
        return RestJson.echo(s);
    }

    private static String echoMessage(String s) {
        return s == null ? "invalid filter" : s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
