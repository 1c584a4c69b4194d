package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;

import io.helidon.json.JsonArray;
import io.helidon.json.JsonException;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
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

    private JsonRecords() {
    }

    /** Parses one JSON document from a (capped) stream. I/O errors pass through as UncheckedIOException. */
    static JsonValue parse(InputStream in) throws FetchFailure {
        JsonValue value;
        try {
            JsonParser parser = JsonParser.create(in);
            value = parser.readJsonValue();
            if (!atEnd(parser)) {
                throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: data after the top-level value");
            }
        } catch (JsonException e) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "not valid JSON: " + firstLine(e.getMessage()));
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

    /** Parses one line of JSONL; null when it is not a JSON object. */
    static RawRecord parseObjectLine(String line) {
        try {
            JsonParser parser = JsonParser.create(line);
            JsonValue v = parser.readJsonValue();
            return v.type() == JsonValueType.OBJECT && atEnd(parser) ? of(v.asObject()) : null;
        } catch (JsonException | UncheckedIOException e) {
            return null;
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
                String s = text(v);
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
                    String s = text(lv);
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

    /** A scalar as text; null for JSON null. */
    private static String text(JsonValue v) {
        return switch (v.type()) {
            case STRING -> v.asString().value();
            case NUMBER -> v.asNumber().bigDecimalValue().toPlainString();
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
