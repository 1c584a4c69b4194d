package dev.proxypool.server.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON documents as plain Java trees: {@code Map<String, Object>} (insertion order kept),
 * {@code List<Object>}, {@code String}, {@code BigDecimal} (or any {@code Number} written by us),
 * {@code Boolean} and {@code null}. Admin entities are stored, audited and answered in this form,
 * so one writer serves the database ({@code jsonb}), the audit log and the HTTP responses.
 *
 * <p>Parsing and writing go through {@link JsonCodec} (nesting limit
 * {@link JsonCodec.Nesting#REQUEST}, a repeated key refused naming it). Trees returned are unmodifiable.
 */
public final class JsonTree {

    private JsonTree() {}

    /**
     * Parses a JSON object.
     *
     * @throws IllegalArgumentException when the text is not valid JSON, not an object, or too deep
     */
    public static Map<String, Object> parseObject(byte[] json) {
        Object v = parse(json);
        if (!(v instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("request body must be a JSON object, got " + typeName(v));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) v;
        return m;
    }

    public static Map<String, Object> parseObject(String json) {
        return parseObject(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Parses any JSON value. */
    public static Object parse(byte[] json) {
        try {
            return toTree(JsonCodec.read(json, JsonCodec.Nesting.REQUEST));
        } catch (MalformedJsonException e) {
            throw new IllegalArgumentException(
                    switch (e.reason()) {
                        case EMPTY -> "request body is empty (expected a JSON object)";
                        case TOO_DEEP -> e.describe("JSON");
                        default -> e.describe("request body");
                    },
                    e);
        }
    }

    private static Object toTree(JsonNode v) {
        if (v.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                m.put(e.getKey(), toTree(e.getValue()));
            }
            return Collections.unmodifiableMap(m);
        }
        if (v.isArray()) {
            List<Object> l = new ArrayList<>(v.size());
            for (JsonNode item : v) {
                l.add(toTree(item));
            }
            return Collections.unmodifiableList(l);
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            return number(v.decimalValue());
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isNull()) {
            return null;
        }
        throw new IllegalArgumentException("unsupported JSON value " + v.getNodeType());
    }

    /** A deep, unmodifiable copy that keeps insertion order and {@code null} values. */
    public static Map<String, Object> freeze(Map<String, ?> in) {
        Map<String, Object> m = new LinkedHashMap<>();
        in.forEach((k, v) -> m.put(k, freezeValue(v)));
        return Collections.unmodifiableMap(m);
    }

    /**
     * One form per number so equal documents are equal whatever wrote them (a request, jsonb, a
     * config record): {@code BigDecimal} without trailing zeros, no negative scale (short of absurd exponents)
     * ({@code 200.0}, {@code 200} and {@code 2E+2} all become {@code 200}).
     */
    public static BigDecimal number(Number n) {
        BigDecimal d = n instanceof BigDecimal b
                ? b
                : n instanceof Double || n instanceof Float
                        ? new BigDecimal(Double.toString(n.doubleValue()))
                        : new BigDecimal(n.toString());
        d = d.stripTrailingZeros();
        return d.scale() < 0 && d.scale() >= -100 ? d.setScale(0) : d;
    }

    /** Plain digits, unless the exponent is huge (then scientific notation, so a tiny input cannot expand). */
    public static String numberText(BigDecimal d) {
        return JsonCodec.numberText(d);
    }

    private static Object freezeValue(Object v) {
        if (v instanceof Number n) {
            return number(n);
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, x) -> m.put(String.valueOf(k), freezeValue(x)));
            return Collections.unmodifiableMap(m);
        }
        if (v instanceof List<?> list) {
            List<Object> l = new ArrayList<>(list.size());
            list.forEach(x -> l.add(freezeValue(x)));
            return Collections.unmodifiableList(l);
        }
        return v;
    }

    /** Writes a tree as compact JSON. */
    public static String write(Object tree) {
        return JsonCodec.write(writable(tree));
    }

    /** Already-serialized JSON to embed as is (audit before/after stored as jsonb text). */
    public record RawJson(String json) {}

    /**
     * The tree in the form the codec writes as this class always has: string keys, a whole
     * double as an integer, NaN and infinities as null, {@link RawJson} as is, any other object as its text.
     */
    private static Object writable(Object v) {
        return switch (v) {
            case null -> null;
            case String s -> s;
            case Boolean b -> b;
            case BigDecimal d -> d;
            case Double d ->
                d.isNaN() || d.isInfinite()
                        ? null
                        : d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) d.longValue() : d;
            case Float f -> writable(f.doubleValue());
            case Number n -> n;
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, x) -> out.put(String.valueOf(k), writable(x)));
                yield out;
            }
            case List<?> l -> {
                List<Object> out = new ArrayList<>(l.size());
                l.forEach(x -> out.add(writable(x)));
                yield out;
            }
            case RawJson raw -> new RawValue(raw.json());
            default -> v.toString();
        };
    }

    /** The JSON type name of a tree value, for messages. */
    public static String typeName(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "a string";
            case Boolean b -> "a boolean";
            case Number n -> "a number";
            case Map<?, ?> m -> "an object";
            case List<?> l -> "an array";
            default -> v.getClass().getSimpleName();
        };
    }
}
