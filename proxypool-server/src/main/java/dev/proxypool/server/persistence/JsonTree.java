package dev.proxypool.server.persistence;

import dev.proxypool.sdk.json.JsonDuplicateKeys;
import dev.proxypool.sdk.json.JsonNesting;
import io.helidon.json.JsonArray;
import io.helidon.json.JsonException;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON documents as plain Java trees: {@code Map<String, Object>} (insertion order kept),
 * {@code List<Object>}, {@code String}, {@code BigDecimal} (or any {@code Number} written by us),
 * {@code Boolean} and {@code null}. Admin entities are stored, audited and answered in this form,
 * so one writer serves the database ({@code jsonb}), the audit log and the HTTP responses.
 *
 * <p>Parsing uses Helidon's JSON parser and refuses nesting deeper than {@value #MAX_DEPTH} levels
 * before it runs (the parser recurses). Trees returned are unmodifiable.
 */
public final class JsonTree {

    /** Admin documents nest a few levels (routing, sticky, labels); anything deeper is refused. */
    public static final int MAX_DEPTH = 16;

    private JsonTree() {
    }

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
        int start = 0;
        while (start < json.length && Character.isWhitespace(json[start])) {
            start++;
        }
        if (start == json.length) {
            throw new IllegalArgumentException("request body is empty (expected a JSON object)");
        }
        if (JsonNesting.depth(json) > MAX_DEPTH) {
            throw new IllegalArgumentException("JSON nests deeper than " + MAX_DEPTH + " levels");
        }
        try {
            JsonParser parser = JsonParser.create(json);
            JsonValue value = parser.readJsonValue();
            if (parser.hasNext()) {
                try {
                    parser.nextToken();
                    throw new IllegalArgumentException("request body is not valid JSON: data after the top-level value");
                } catch (JsonException whitespaceOnly) {
                    // only whitespace followed
                }
            }
            String duplicate = JsonDuplicateKeys.problem(json);
            if (duplicate != null) {
                throw new IllegalArgumentException(duplicate);
            }
            return toTree(value);
        } catch (JsonException | UncheckedIOException | IllegalStateException e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalArgumentException("request body is not valid JSON: " + m, e);
        }
    }

    private static Object toTree(JsonValue v) {
        return switch (v.type()) {
            case OBJECT -> {
                JsonObject o = v.asObject();
                Map<String, Object> m = new LinkedHashMap<>();
                for (String k : o.keysAsStrings()) {
                    m.put(k, toTree(o.value(k, null)));
                }
                yield Collections.unmodifiableMap(m);
            }
            case ARRAY -> {
                JsonArray a = v.asArray();
                List<Object> l = new ArrayList<>();
                for (JsonValue item : a.values()) {
                    l.add(toTree(item));
                }
                yield Collections.unmodifiableList(l);
            }
            case STRING -> v.asString().value();
            case NUMBER -> number(v.asNumber().bigDecimalValue());
            case BOOLEAN -> v.asBoolean().value();
            case NULL -> null;
            default -> throw new IllegalArgumentException("unsupported JSON value " + v.type());
        };
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
        BigDecimal d = n instanceof BigDecimal b ? b
                : n instanceof Double || n instanceof Float ? new BigDecimal(Double.toString(n.doubleValue()))
                : new BigDecimal(n.toString());
        d = d.stripTrailingZeros();
        return d.scale() < 0 && d.scale() >= -100 ? d.setScale(0) : d;
    }

    /** Plain digits, unless the exponent is huge (then scientific notation, so a tiny input cannot expand). */
    public static String numberText(BigDecimal d) {
        return Math.abs(d.scale()) > 100 || d.precision() - d.scale() > 100 ? d.toString() : d.toPlainString();
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
        StringBuilder sb = new StringBuilder(128);
        write(sb, tree);
        return sb.toString();
    }

    public static void write(StringBuilder out, Object v) {
        switch (v) {
            case null -> out.append("null");
            case String s -> quote(out, s);
            case Boolean b -> out.append(b);
            case BigDecimal d -> out.append(numberText(d));
            case Double d -> out.append(d.isNaN() || d.isInfinite() ? "null"
                    : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : d.toString());
            case Float f -> write(out, f.doubleValue());
            case Number n -> out.append(n.toString());
            case Map<?, ?> m -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    quote(out, String.valueOf(e.getKey()));
                    out.append(':');
                    write(out, e.getValue());
                }
                out.append('}');
            }
            case List<?> l -> {
                out.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(out, l.get(i));
                }
                out.append(']');
            }
            case RawJson raw -> out.append(raw.json());
            default -> quote(out, v.toString());
        }
    }

    /** Already-serialized JSON to embed as is (audit before/after stored as jsonb text). */
    public record RawJson(String json) {
    }

    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
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
