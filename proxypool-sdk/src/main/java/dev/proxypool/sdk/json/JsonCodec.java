package dev.proxypool.sdk.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The one place that reads and writes JSON (Jackson underneath) and the one place that sets its
 * limits. Every parse of untrusted text goes through {@link #read(byte[], Nesting)}:
 * <ul>
 *   <li>nesting deeper than the caller's {@link Nesting} level is refused;</li>
 *   <li>a document longer than {@value #MAX_DOCUMENT_BYTES} bytes, a string longer than
 *       {@value #MAX_STRING_CHARS} characters or a number longer than {@value #MAX_NUMBER_CHARS}
 *       characters is refused;</li>
 *   <li>a key written twice in one object is refused, naming the key and its path
 *       ({@code filter.labels.kind}, {@code items[2].id}): the parser would otherwise keep one of the
 *       values silently, and a body would mean something else to us than to whoever checked it;</li>
 *   <li>data after the top-level value is refused;</li>
 *   <li>numbers keep their exact value ({@code BigDecimal} for fractions, never a {@code double}).</li>
 * </ul>
 * Trees are Jackson {@link JsonNode}s. Unknown fields are the reader's business: the readers whose
 * API refuses them ({@code POST /v1/extractions}) check the keys of the tree and name the field.
 *
 * <p>Writing goes through the same mapper ({@link #write(Object)} for maps, lists, records and
 * trees; {@link #write(Body)} for a streamed body), so no string is quoted by hand anywhere.
 * Error messages carry the parser's first line at most and never the raw input.
 */
public final class JsonCodec {

    /** Largest document read: bigger than any body or feed the callers accept (they cap earlier). */
    public static final long MAX_DOCUMENT_BYTES = 64L << 20;
    /** Longest string value or key. */
    public static final int MAX_STRING_CHARS = 16 << 20;
    /** Longest number literal. */
    public static final int MAX_NUMBER_CHARS = 1000;
    /** Longest key path named in a duplicate-key message (it is echoed back). */
    private static final int MAX_PATH_CHARS = 200;
    /** Longest parser detail kept in a message. */
    private static final int MAX_DETAIL_CHARS = 120;

    /** How deeply a kind of document may nest objects and arrays. */
    public enum Nesting {
        /** An echo body ({@code ip}, {@code headers}): a few levels. */
        ECHO(8),
        /** Request bodies and stored admin documents (routing, sticky, labels). */
        REQUEST(16),
        /** Vendor feeds and remote answers ({@code data.proxies[].labels}). */
        FEED(32);

        private final int maxDepth;
        private final JsonMapper mapper;

        Nesting(int maxDepth) {
            this.maxDepth = maxDepth;
            this.mapper = mapper(maxDepth);
        }

        /** The deepest nesting allowed. */
        public int maxDepth() {
            return maxDepth;
        }
    }

    /** Writes one JSON value with a streaming generator. */
    @FunctionalInterface
    public interface Body {
        /**
         * Writes the value.
         *
         * @throws IOException from the generator
         */
        void write(JsonGenerator g) throws IOException;
    }

    private static final JsonMapper WRITER = mapper(32);
    private static final JsonMapper BINDER = WRITER.rebuild()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private JsonCodec() {}

    private static JsonMapper mapper(int maxDepth) {
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxNestingDepth(maxDepth)
                .maxDocumentLength(MAX_DOCUMENT_BYTES)
                .maxStringLength(MAX_STRING_CHARS)
                .maxNumberLength(MAX_NUMBER_CHARS)
                .maxNameLength(MAX_STRING_CHARS)
                .build();
        JsonMapper m = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .addModule(new SimpleModule("proxypool-numbers").addSerializer(BigDecimal.class, new PlainNumbers()))
                .build();
        m.getFactory().setStreamReadConstraints(limits);
        m.getFactory().setCharacterEscapes(new Escapes());
        return m;
    }

    /**
     * Parses one JSON value.
     *
     * @throws MalformedJsonException when the text is empty, not JSON, followed by more data, too
     *         deep, too long, or repeats a key; {@link MalformedJsonException#reason()} says which
     */
    public static JsonNode read(byte[] json, Nesting nesting) {
        if (blank(json)) {
            throw new MalformedJsonException(MalformedJsonException.Reason.EMPTY, "empty", null);
        }
        try {
            JsonNode node = nesting.mapper.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new MalformedJsonException(MalformedJsonException.Reason.EMPTY, "empty", null);
            }
            return node;
        } catch (StreamConstraintsException e) {
            throw limit(e, nesting);
        } catch (StreamReadException e) {
            String duplicate = duplicatePath(e);
            if (duplicate != null) {
                throw new MalformedJsonException(MalformedJsonException.Reason.DUPLICATE_KEY, duplicate, duplicate);
            }
            throw syntax(e);
        } catch (JsonProcessingException e) {
            throw syntax(e);
        } catch (NumberFormatException | ArithmeticException e) {
            // an exponent beyond what BigDecimal holds (1e9999999999)
            throw new MalformedJsonException(MalformedJsonException.Reason.SYNTAX, "a number out of range", null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #read(byte[], Nesting)} of text. */
    public static JsonNode read(String json, Nesting nesting) {
        return read(json.getBytes(StandardCharsets.UTF_8), nesting);
    }

    /** Writes maps, lists, records, strings, numbers, booleans, {@code null} or a {@link JsonNode} as compact JSON. */
    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + firstLine(e.getOriginalMessage()), e);
        }
    }

    /**
     * Binds a tree to a type (a record of the REST API's bodies): fields the type does not have are
     * ignored, a value that does not fit its field is refused.
     *
     * @param tree the parsed value
     * @param type the record or class to bind to
     * @param <T>  the type
     * @return the bound value
     * @throws IllegalArgumentException naming the field that does not fit
     */
    public static <T> T bind(JsonNode tree, Class<T> type) {
        try {
            return BINDER.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot bind " + type.getSimpleName() + ": " + printable(firstLine(e.getOriginalMessage())), e);
        }
    }

    /** Writes one value with a streaming generator, as compact JSON. */
    public static String write(Body body) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = WRITER.getFactory().createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** {@code s} as a JSON string literal. */
    public static String quote(String s) {
        return write((Object) s);
    }

    /** Appends {@code s} as a JSON string literal. */
    public static StringBuilder quote(StringBuilder sb, String s) {
        return sb.append(quote(s));
    }

    /** Plain digits, unless the exponent is huge (then scientific notation, so a tiny input cannot expand). */
    public static String numberText(BigDecimal d) {
        return Math.abs((long) d.scale()) > 100 || (long) d.precision() - d.scale() > 100
                ? d.toString()
                : d.toPlainString();
    }

    /**
     * Escapes what the standard writer would emit raw but should not: UTF-16 surrogates (a lone one
     * decoded from a {@code \\udc00} escape cannot be encoded as UTF-8, so it is written as the same
     * escape and reads back unchanged) and the line separators U+2028/U+2029 (not line breaks in
     * JSON, but in a script that embeds it).
     */
    private static final class Escapes extends CharacterEscapes {
        private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (Character.isSurrogate((char) ch) || ch == 0x2028 || ch == 0x2029) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }

    /** Writes {@code BigDecimal}s with {@link #numberText(BigDecimal)}. */
    private static final class PlainNumbers extends StdSerializer<BigDecimal> {
        PlainNumbers() {
            super(BigDecimal.class);
        }

        @Override
        public void serialize(BigDecimal value, JsonGenerator g, SerializerProvider provider) throws IOException {
            g.writeNumber(numberText(value));
        }
    }

    /** The JSON type of a node for messages: object, array, string, number, boolean, null. */
    public static String typeName(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "null";
        }
        if (v.isObject()) {
            return "object";
        }
        if (v.isArray()) {
            return "array";
        }
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "boolean";
        }
        return "unknown";
    }

    private static boolean blank(byte[] json) {
        for (byte b : json) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static MalformedJsonException limit(StreamConstraintsException e, Nesting nesting) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) {
            return new MalformedJsonException(
                    MalformedJsonException.Reason.TOO_DEEP, "nests deeper than " + nesting.maxDepth + " levels", null);
        }
        String what = m.contains("String value length")
                ? "a string longer than " + MAX_STRING_CHARS + " characters"
                : m.contains("Number value length")
                        ? "a number longer than " + MAX_NUMBER_CHARS + " characters"
                        : m.contains("Name length")
                                ? "a key longer than " + MAX_STRING_CHARS + " characters"
                                : m.contains("Document length")
                                        ? "longer than " + MAX_DOCUMENT_BYTES + " bytes"
                                        : "over a size limit";
        return new MalformedJsonException(MalformedJsonException.Reason.TOO_LONG, what, null);
    }

    private static MalformedJsonException syntax(JsonProcessingException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.startsWith("Trailing token")) {
            return new MalformedJsonException(
                    MalformedJsonException.Reason.TRAILING, "data after the top-level value", null);
        }
        return new MalformedJsonException(MalformedJsonException.Reason.SYNTAX, detail(m), null);
    }

    /**
     * The parser's message without echoed input: its first line, with a quoted token (which may
     * be part of a secret) left out.
     */
    private static String detail(String message) {
        String s = printable(firstLine(message));
        if (s.startsWith("Unrecognized token")) {
            return "unrecognized token";
        }
        if (s.startsWith("Invalid UTF-8") || s.startsWith("Invalid UTF8")) {
            return "invalid UTF-8";
        }
        return s.length() > MAX_DETAIL_CHARS ? s.substring(0, MAX_DETAIL_CHARS) : s;
    }

    /** Control and non-ASCII characters (the parser quotes the offending one) shown as {@code ?}. */
    private static String printable(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return out.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** The path of the repeated key when {@code e} is the parser's duplicate-key error, else null. */
    private static String duplicatePath(StreamReadException e) {
        String m = e.getOriginalMessage();
        if (m == null || !m.startsWith("Duplicate field") || !(e.getProcessor() instanceof JsonParser p)) {
            return null;
        }
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = p.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            parts.push(c.inArray() ? "[" + c.getCurrentIndex() + "]" : c.getCurrentName());
        }
        StringBuilder path = new StringBuilder();
        for (String part : parts) {
            if (!path.isEmpty() && !part.startsWith("[")) {
                path.append('.');
            }
            path.append(part);
        }
        return path.length() > MAX_PATH_CHARS ? path.substring(0, MAX_PATH_CHARS) + "..." : path.toString();
    }
}
