package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.json.JsonNesting;

import io.helidon.json.JsonArray;
import io.helidon.json.JsonException;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The only place that touches the JSON library (Helidon's {@code io.helidon.json}, in the Helidon
 * BOM already on our classpath; it is marked preview in 4.5, so it stays behind this one file).
 * Parse errors become {@link FetchFailure} ({@link FetchOutcome.ErrorKind#PARSE}) whose detail is the
 * parser's first message line only: later lines dump raw input, which may hold secrets.
 */
final class JsonRecords {

    /** Feeds nest a few levels ({@code data.proxies[].labels}); deeper input is refused before the recursive parser runs. */
    static final int MAX_DEPTH = 32;
    /** Numbers with a larger scale (either sign) are not written out digit by digit. */
    private static final int MAX_PLAIN_SCALE = 64;

    private JsonRecords() {
    }

    /**
     * Parses one JSON document from a (capped) stream. The answer is read whole first (the cap
     * bounds it): Helidon 4.5.0's stream parser refuses valid JSON whose escape sequence straddles
     * its 512-byte buffer. I/O errors pass through as UncheckedIOException.
     */
    static JsonValue parse(InputStream in) throws FetchFailure {
        byte[] bytes;
        try {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (JsonNesting.depth(bytes) > MAX_DEPTH) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: nests deeper than " + MAX_DEPTH + " levels");
        }
        JsonValue value;
        try {
            JsonParser parser = JsonParser.create(bytes);
            value = parser.readJsonValue();
            if (!atEnd(parser)) {
                throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: data after the top-level value");
            }
            decodeStrings(value);
        } catch (JsonException e) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: " + firstLine(e.getMessage()));
        } catch (RuntimeException e) {
            // the preview parser fails on some bad bytes with raw runtime exceptions (an
            // ArrayIndexOutOfBoundsException for a non-ASCII byte right after a number)
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: unexpected character");
        }
        return value;
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

    /** Parses one line of JSONL; null when it is not a JSON object (or not valid JSON at all). */
    static RawRecord parseObjectLine(String line) {
        if (JsonNesting.depth(line) > MAX_DEPTH) {
            return null;
        }
        try {
            JsonParser parser = JsonParser.create(line);
            JsonValue v = parser.readJsonValue();
            if (v.type() != JsonValueType.OBJECT || !atEnd(parser)) {
                return null;
            }
            decodeStrings(v);
            return of(v.asObject());
        } catch (RuntimeException e) {
            // JsonException, or a raw runtime exception of the preview parser on bad bytes
            return null;
        }
    }

    /**
     * Decodes every key and string now: the parser decodes them lazily, so a bad escape or bad
     * UTF-8 would otherwise surface later, outside the parse, and fail the whole fetch instead of
     * this document or line.
     */
    private static void decodeStrings(JsonValue v) {
        switch (v.type()) {
            case OBJECT -> {
                JsonObject o = v.asObject();
                for (String k : o.keysAsStrings()) {
                    decodeStrings(o.value(k, null));
                }
            }
            case ARRAY -> {
                for (JsonValue e : v.asArray().values()) {
                    decodeStrings(e);
                }
            }
            case STRING -> v.asString().value();
            default -> {
                // numbers are read by text(), which handles any magnitude
            }
        }
    }

    /**
     * The list of records in a feed answer: the answer itself when it is an array, else the array at
     * the dotted {@code listField} of the answer object.
     */
    static JsonArray list(JsonValue answer, String listField) throws FetchFailure {
        if (answer.type() == JsonValueType.ARRAY) {
            return answer.asArray();
        }
        if (answer.type() != JsonValueType.OBJECT) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "answer is a JSON " + typeName(answer) + ", not a list");
        }
        if (listField == null) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "answer is a JSON object and no listField is configured");
        }
        JsonValue v = at(answer.asObject(), listField);
        if (v == null || v.type() != JsonValueType.ARRAY) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "answer has no list at '" + listField + "'"
                    + (v == null ? "" : " (found a " + typeName(v) + ")"));
        }
        return v.asArray();
    }

    /** The element as a record, or null when it is not an object. */
    static RawRecord element(JsonValue v) {
        return v.type() == JsonValueType.OBJECT ? of(v.asObject()) : null;
    }

    private static RawRecord of(JsonObject o) {
        return new RawRecord() {
            @Override
            public String scalar(String field, DropReason ifStructured) throws Drop {
                JsonValue v = at(o, field);
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
                JsonValue v = at(o, field);
                if (v == null || v.type() == JsonValueType.NULL) {
                    return null;
                }
                if (v.type() != JsonValueType.OBJECT) {
                    throw new Drop(DropReason.INVALID_LABEL);
                }
                JsonObject labels = v.asObject();
                Map<String, String> out = new TreeMap<>();
                for (String k : labels.keysAsStrings()) {
                    JsonValue lv = labels.value(k).orElseThrow();
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

    private static boolean structured(JsonValue v) {
        return switch (v.type()) {
            case STRING, NUMBER, BOOLEAN, NULL -> false;
            case OBJECT, ARRAY, UNKNOWN -> true;
        };
    }

    /**
     * A scalar as text; null for JSON null. A number is written out in full only while that stays
     * short: {@code 1e999999999} in plain form would be a billion digits, so it stays {@code 1E+999999999}
     * (which no field accepts). A number the parser cannot represent drops the record with {@code ifBad}.
     */
    private static String text(JsonValue v, DropReason ifBad) throws Drop {
        return switch (v.type()) {
            case STRING -> v.asString().value();
            case NUMBER -> {
                java.math.BigDecimal n;
                try {
                    n = v.asNumber().bigDecimalValue();
                } catch (RuntimeException e) {
                    throw new Drop(ifBad);
                }
                yield Math.abs((long) n.scale()) > MAX_PLAIN_SCALE ? n.toString() : n.toPlainString();
            }
            case BOOLEAN -> String.valueOf(v.asBoolean().value());
            case NULL, OBJECT, ARRAY, UNKNOWN -> null;
        };
    }

    /** The value at {@code field}: the key itself first, then a dotted path through nested objects. */
    private static JsonValue at(JsonObject o, String field) {
        JsonValue direct = o.value(field, null);
        if (direct != null || field.indexOf('.') < 0) {
            return direct;
        }
        JsonValue cur = o;
        for (String part : field.split("\\.", -1)) {
            if (cur.type() != JsonValueType.OBJECT) {
                return null;
            }
            cur = cur.asObject().value(part, null);
            if (cur == null) {
                return null;
            }
        }
        return cur;
    }

    private static String typeName(JsonValue v) {
        return v.type().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String s = nl < 0 ? message : message.substring(0, nl);
        return s.length() > 120 ? s.substring(0, 120) : s;
    }
}
