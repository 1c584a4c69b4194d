package dev.proxypool.sdk.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

    private static MalformedJsonException refused(String json, JsonCodec.Nesting nesting) {
        return assertThrows(MalformedJsonException.class, () -> JsonCodec.read(json, nesting));
    }

    @Test
    void tooDeepIsRefusedNamingTheLimit() {
        String ok = "[".repeat(16) + "]".repeat(16);
        assertTrue(JsonCodec.read(ok, JsonCodec.Nesting.REQUEST).isArray());
        MalformedJsonException e = refused("[".repeat(17) + "]".repeat(17), JsonCodec.Nesting.REQUEST);
        assertEquals(MalformedJsonException.Reason.TOO_DEEP, e.reason());
        assertEquals("request body nests deeper than 16 levels", e.describe("request body"));
        // far deeper than any stack: refused by the limit, not a StackOverflowError
        MalformedJsonException deep = refused("{\"a\":" + "[".repeat(200_000), JsonCodec.Nesting.FEED);
        assertTrue(deep.getMessage().contains("deeper than 32 levels"), deep.getMessage());
    }

    @Test
    void tooLongIsRefusedNamingWhat() {
        String longString = "\"" + "x".repeat(JsonCodec.MAX_STRING_CHARS + 1) + "\"";
        MalformedJsonException s = refused(longString, JsonCodec.Nesting.FEED);
        assertEquals(MalformedJsonException.Reason.TOO_LONG, s.reason());
        assertTrue(
                s.getMessage().contains("a string longer than " + JsonCodec.MAX_STRING_CHARS + " characters"),
                s.getMessage());
        MalformedJsonException n =
                refused("[" + "9".repeat(JsonCodec.MAX_NUMBER_CHARS + 1) + "]", JsonCodec.Nesting.FEED);
        assertEquals(MalformedJsonException.Reason.TOO_LONG, n.reason());
        assertTrue(n.getMessage().contains("a number longer than"), n.getMessage());
        assertFalse(n.getMessage().contains("9999"), "the input is not echoed: " + n.getMessage());
    }

    @Test
    void aDuplicateKeyIsRefusedNamingTheKeyAndItsPath() {
        assertEquals(
                "count",
                refused("{\"count\": 1, \"count\": 1000}", JsonCodec.Nesting.REQUEST)
                        .duplicateKey());
        assertEquals(
                "filter.labels.kind",
                refused(
                                "{\"count\": 1, \"filter\": {\"labels\": {\"kind\": \"a\", \"kind\": \"b\"}}}",
                                JsonCodec.Nesting.REQUEST)
                        .duplicateKey());
        assertEquals(
                "items[2].id",
                refused("{\"items\": [{\"id\": 1}, {\"id\": 2}, {\"id\": 3, \"id\": 4}]}", JsonCodec.Nesting.REQUEST)
                        .duplicateKey());
        assertEquals(
                "[1].a",
                refused("[{\"a\": 1}, {\"a\": 1, \"a\": 2}]", JsonCodec.Nesting.REQUEST)
                        .duplicateKey());
        MalformedJsonException escaped = refused("{\"a\": 1, \"\\u0061\": 2}", JsonCodec.Nesting.REQUEST);
        assertEquals("a", escaped.duplicateKey(), "an escaped spelling is the same key");
        MalformedJsonException secret =
                refused("{\"secret\": \"canary-1\", \"secret\": \"canary-2\"}", JsonCodec.Nesting.REQUEST);
        assertEquals(
                "duplicate key 'secret' in the request body (each key may appear once)",
                secret.describe("request body"));
        assertFalse(secret.getMessage().contains("canary"), secret.getMessage());
        // the same key in different objects is fine
        JsonCodec.read(
                "{\"a\": {\"a\": {\"a\": 1}}, \"b\": [{\"a\": 1}, {\"a\": 2}], \"c\": \"{\\\"a\\\":1,\\\"a\\\":2}\"}",
                JsonCodec.Nesting.REQUEST);
    }

    @Test
    void syntaxErrorsTrailingDataAndEmptyTextAreNamedWithoutEchoingInput() {
        assertEquals(
                MalformedJsonException.Reason.EMPTY,
                refused(" \n", JsonCodec.Nesting.REQUEST).reason());
        assertEquals(
                MalformedJsonException.Reason.TRAILING,
                refused("{} {}", JsonCodec.Nesting.REQUEST).reason());
        MalformedJsonException bad = refused("{\"a\": hunter2-password}", JsonCodec.Nesting.REQUEST);
        assertEquals(MalformedJsonException.Reason.SYNTAX, bad.reason());
        assertTrue(bad.describe("request body").startsWith("request body is not valid JSON: "), bad.getMessage());
        assertFalse(bad.getMessage().contains("hunter2"), bad.getMessage());
        assertEquals(
                MalformedJsonException.Reason.SYNTAX,
                refused("NaN", JsonCodec.Nesting.REQUEST).reason());
        assertEquals(
                "JSON is not valid JSON: a number out of range",
                refused("{\"port\": 1e9999999993128}", JsonCodec.Nesting.FEED).getMessage());
    }

    @Test
    void numbersKeepTheirExactValue() {
        JsonNode n = JsonCodec.read(
                "{\"i\": 12345678901234567890123, \"f\": 0.10, \"e\": 1e999999999}", JsonCodec.Nesting.REQUEST);
        assertTrue(n.get("i").isIntegralNumber());
        assertEquals(new BigDecimal("0.10"), n.get("f").decimalValue());
        assertEquals(new BigDecimal("1e999999999"), n.get("e").decimalValue());
    }

    @Test
    void writingEscapesEveryStringAndKeepsNumbersShort() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("q\"\\\n\u0001", "line\nbreak \"quoted\" \u2028");
        m.put("n", List.of(new BigDecimal("200"), new BigDecimal("0.0000001"), new BigDecimal("1E+999999999")));
        m.put("none", null);
        String json = JsonCodec.write(m);
        assertEquals(
                "{\"q\\\"\\\\\\n\\u0001\":\"line\\nbreak \\\"quoted\\\" \\u2028\","
                        + "\"n\":[200,0.0000001,1E+999999999],\"none\":null}",
                json);
        JsonNode back = JsonCodec.read(json, JsonCodec.Nesting.REQUEST);
        assertEquals("line\nbreak \"quoted\" \u2028", back.get("q\"\\\n\u0001").textValue());
        assertEquals("\"a\\tb\"", JsonCodec.quote("a\tb"));
        // a lone surrogate (from a \\udc00 escape) is written as the same escape, so it reads back unchanged
        String lone = JsonCodec.read("\"x\\udc00y\"", JsonCodec.Nesting.REQUEST).textValue();
        assertEquals("\"x\\udc00y\"", JsonCodec.quote(lone));
        assertEquals(
                lone,
                JsonCodec.read(JsonCodec.quote(lone), JsonCodec.Nesting.REQUEST).textValue());
    }
}
