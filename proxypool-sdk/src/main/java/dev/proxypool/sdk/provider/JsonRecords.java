package dev.proxypool.sdk.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Feed records read through {@link JsonCodec} (nesting limit {@link JsonCodec.Nesting#FEED}).
 * Parse errors become {@link FetchFailure} ({@link FetchOutcome.ErrorKind#PARSE}) whose detail names
 * the problem without echoing the input, which may hold secrets.
 */
final class JsonRecords {

    /** Numbers with a larger scale (either sign) are not written out digit by digit. */
    private static final int MAX_PLAIN_SCALE = 64;

    private JsonRecords() {}

    /**
     * Parses one JSON document from a (capped) stream, read whole first (the cap bounds it). I/O
     * errors pass through as UncheckedIOException.
     */
    static JsonNode parse(InputStream in) throws FetchFailure {
        byte[] bytes;
        try {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return JsonCodec.read(bytes, JsonCodec.Nesting.FEED);
        } catch (MalformedJsonException e) {
            String detail = switch (e.reason()) {
                case SYNTAX, TRAILING -> e.describe("answer").substring("answer is ".length());
                default -> "not valid JSON: " + e.describe("answer").substring("answer ".length());
            };
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, detail);
        }
    }

    /** Parses one line of JSONL; null when it is not a JSON object (or not valid JSON at all). */
    static RawRecord parseObjectLine(String line) {
        try {
            JsonNode v = JsonCodec.read(line, JsonCodec.Nesting.FEED);
            return v.isObject() ? of(v) : null;
        } catch (MalformedJsonException e) {
            return null;
        }
    }

    /**
     * The list of records in a feed answer: the answer itself when it is an array, else the array at
     * the dotted {@code listField} of the answer object.
     */
    static ArrayNode list(JsonNode answer, String listField) throws FetchFailure {
        if (answer.isArray()) {
            return (ArrayNode) answer;
        }
        if (!answer.isObject()) {
            throw new FetchFailure(
                    FetchOutcome.ErrorKind.PARSE, "answer is a JSON " + typeName(answer) + ", not a list");
        }
        if (listField == null) {
            throw new FetchFailure(
                    FetchOutcome.ErrorKind.PARSE, "answer is a JSON object and no listField is configured");
        }
        JsonNode v = at(answer, listField);
        if (v == null || !v.isArray()) {
            throw new FetchFailure(
                    FetchOutcome.ErrorKind.PARSE,
                    "answer has no list at '" + listField + "'" + (v == null ? "" : " (found a " + typeName(v) + ")"));
        }
        return (ArrayNode) v;
    }

    /** The element as a record, or null when it is not an object. */
    static RawRecord element(JsonNode v) {
        return v.isObject() ? of(v) : null;
    }

    private static RawRecord of(JsonNode o) {
        return new RawRecord() {
            @Override
            public String scalar(String field, DropReason ifStructured) throws Drop {
                JsonNode v = at(o, field);
                if (v == null) {
                    return null;
                }
                if (structured(v)) {
                    throw new Drop(ifStructured);
                }
                String s = text(v, ifStructured);
                return s == null || s.isBlank() ? null : s.trim();
            }

            @Override
            public Map<String, String> labelObject(String field) throws Drop {
                JsonNode v = at(o, field);
                if (v == null || v.isNull()) {
                    return null;
                }
                if (!v.isObject()) {
                    throw new Drop(DropReason.INVALID_LABEL);
                }
                Map<String, String> out = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> entry = it.next();
                    String k = entry.getKey();
                    JsonNode lv = entry.getValue();
                    if (structured(lv)) {
                        throw new Drop(DropReason.INVALID_LABEL);
                    }
                    String s = text(lv, DropReason.INVALID_LABEL);
                    if (s != null) {
                        out.put(k, s);
                    }
                }
                return out;
            }
        };
    }

    private static boolean structured(JsonNode v) {
        return !(v.isTextual() || v.isNumber() || v.isBoolean() || v.isNull());
    }

    /**
     * A scalar as text; null for JSON null. A number is written out in full only while that stays
     * short: {@code 1e999999999} in plain form would be a billion digits, so it stays {@code 1E+999999999}
     * (which no field accepts). A number that cannot be represented drops the record with {@code ifBad}.
     */
    private static String text(JsonNode v, DropReason ifBad) throws Drop {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isNumber()) {
            BigDecimal n;
            try {
                n = v.decimalValue();
            } catch (RuntimeException e) {
                throw new Drop(ifBad);
            }
            return Math.abs((long) n.scale()) > MAX_PLAIN_SCALE ? n.toString() : n.toPlainString();
        }
        if (v.isBoolean()) {
            return String.valueOf(v.booleanValue());
        }
        return null;
    }

    /** The value at {@code field}: the key itself first, then a dotted path through nested objects. */
    private static JsonNode at(JsonNode o, String field) {
        JsonNode direct = o.get(field);
        if (direct != null || field.indexOf('.') < 0) {
            return direct;
        }
        JsonNode cur = o;
        for (String part : field.split("\\.", -1)) {
            if (!cur.isObject()) {
                return null;
            }
            cur = cur.get(part);
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }

    private static String typeName(JsonNode v) {
        return JsonCodec.typeName(v);
    }
}
