package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Binds a body of this package to its record. A server reads a request with
 * {@link #strict(JsonNode, Class, Map)}: the record's components are the only fields allowed, each
 * value must have its component's JSON type, an integer must be whole and within its range; the
 * message names the field ({@code filter.labels.kind must be a string, got number}). A client reads
 * an answer with {@link #lenient(JsonNode, Class)}: unknown fields are ignored.
 */
public final class RestJson {

    /** Longest caller-supplied text echoed in a message. */
    private static final int ECHO_MAX = 64;

    private RestJson() {}

    /**
     * The inclusive range of an integer field.
     *
     * @param min the smallest value
     * @param max the largest value
     */
    public record Range(long min, long max) {}

    /**
     * Checks a request object against {@code type} and binds it. {@code null} counts as absent.
     *
     * @param object the parsed request body (a JSON object)
     * @param type   the body's record
     * @param ranges the range of each integer field by its path ({@code count}); a field not named
     *               may hold any value of its Java type
     * @param <T>    the record
     * @return the bound body
     * @throws IllegalArgumentException naming the first field that does not fit
     */
    public static <T extends Record> T strict(JsonNode object, Class<T> type, Map<String, Range> ranges) {
        check(object, type, "", ranges);
        return JsonCodec.bind(object, type);
    }

    /**
     * Binds an answer to {@code type}, ignoring fields the record does not have.
     *
     * @param object the parsed answer
     * @param type   the body's record
     * @param <T>    the record
     * @return the bound body
     * @throws IllegalArgumentException when a value does not fit its field
     */
    public static <T extends Record> T lenient(JsonNode object, Class<T> type) {
        return JsonCodec.bind(object, type);
    }

    /**
     * The JSON field names of a body, in the record's order.
     *
     * @param type the body's record
     * @return its field names
     */
    public static List<String> fields(Class<? extends Record> type) {
        List<String> names = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    /**
     * Caller-supplied text as shown in a message: at most {@value #ECHO_MAX} characters.
     *
     * @param s the text
     * @return the text, shortened
     */
    public static String echo(String s) {
        return s.length() <= ECHO_MAX ? s : s.substring(0, ECHO_MAX) + "...";
    }

    /**
     * Checks an integer value.
     *
     * @param field the field's path, for the message
     * @param v     the value (not null)
     * @param range its range
     * @return the value
     * @throws IllegalArgumentException when it is not a whole number within the range
     */
    public static long integer(String field, JsonNode v, Range range) {
        if (!v.isNumber()) {
            throw new IllegalArgumentException(field + " must be an integer, got " + JsonCodec.typeName(v));
        }
        BigDecimal n = v.decimalValue();
        String shown = echo(n.toString());
        if (n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(field + " must be an integer, got " + shown);
        }
        if (n.compareTo(BigDecimal.valueOf(range.min())) < 0 || n.compareTo(BigDecimal.valueOf(range.max())) > 0) {
            throw new IllegalArgumentException(
                    field + " must be between " + range.min() + " and " + range.max() + ", got " + shown);
        }
        return n.longValueExact();
    }

    private static void check(JsonNode o, Class<? extends Record> type, String prefix, Map<String, Range> ranges) {
        List<String> names = fields(type);
        for (Iterator<String> keys = o.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!names.contains(key)) {
                throw new IllegalArgumentException(
                        "unknown field '" + prefix + echo(key) + "' (expected " + String.join(", ", names) + ")");
            }
        }
        for (RecordComponent c : type.getRecordComponents()) {
            JsonNode v = o.get(c.getName());
            if (v != null && !v.isNull()) {
                value(prefix + c.getName(), v, c.getType(), c.getGenericType(), ranges);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void value(String field, JsonNode v, Class<?> type, Type generic, Map<String, Range> ranges) {
        if (type == String.class) {
            if (!v.isTextual()) {
                throw new IllegalArgumentException(field + " must be a string, got " + JsonCodec.typeName(v));
            }
        } else if (type == Long.class || type == Integer.class) {
            Range whole = type == Long.class
                    ? new Range(Long.MIN_VALUE, Long.MAX_VALUE)
                    : new Range(Integer.MIN_VALUE, Integer.MAX_VALUE);
            integer(field, v, ranges.getOrDefault(field, whole));
        } else if (type == Boolean.class) {
            if (!v.isBoolean()) {
                throw new IllegalArgumentException(field + " must be true or false, got " + JsonCodec.typeName(v));
            }
        } else if (type == Map.class && stringValues(generic)) {
            if (!v.isObject()) {
                throw new IllegalArgumentException(
                        field + " must be an object of strings, got " + JsonCodec.typeName(v));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException(field + "." + echo(e.getKey()) + " must be a string, got "
                            + JsonCodec.typeName(e.getValue()));
                }
            }
        } else if (type.isRecord()) {
            if (!v.isObject()) {
                throw new IllegalArgumentException(field + " must be an object, got " + JsonCodec.typeName(v));
            }
            check(v, (Class<? extends Record>) type, field + ".", ranges);
        } else {
            throw new IllegalStateException(
                    "a request body's field of type " + type.getSimpleName() + " is not supported (" + field + ")");
        }
    }

    private static boolean stringValues(Type generic) {
        return generic instanceof ParameterizedType p
                && p.getActualTypeArguments().length == 2
                && p.getActualTypeArguments()[1] == String.class;
    }
}
