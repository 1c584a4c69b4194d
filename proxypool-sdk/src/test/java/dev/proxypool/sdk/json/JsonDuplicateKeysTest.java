package dev.proxypool.sdk.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonDuplicateKeysTest {

    @Test
    void aKeyRepeatedInOneObjectIsFoundWithItsPath() {
        assertEquals("count", JsonDuplicateKeys.find("{\"count\": 1, \"count\": 1000}"));
        assertEquals("filter.labels.kind",
                JsonDuplicateKeys.find("{\"count\": 1, \"filter\": {\"labels\": {\"kind\": \"a\", \"kind\": \"b\"}}}"));
        assertEquals("items[2].id", JsonDuplicateKeys.find("{\"items\": [{\"id\": 1}, {\"id\": 2}, {\"id\": 3, \"id\": 4}]}"));
        assertEquals("[1].a", JsonDuplicateKeys.find("[{\"a\": 1}, {\"a\": 1, \"a\": 2}]"));
    }

    @Test
    void escapedSpellingsOfOneKeyAreTheSameKey() {
        assertEquals("a", JsonDuplicateKeys.find("{\"a\": 1, \"\\u0061\": 2}"));
        assertEquals("a\"b", JsonDuplicateKeys.find("{\"a\\\"b\": 1, \"a\\u0022b\": 2}"));
    }

    @Test
    void theSameKeyInDifferentObjectsAndKeyLikeStringsAreFine() {
        assertNull(JsonDuplicateKeys.find("{\"a\": {\"a\": {\"a\": 1}}, \"b\": [{\"a\": 1}, {\"a\": 2}]}"));
        assertNull(JsonDuplicateKeys.find("{\"a\": \"a\", \"b\": [\"a\", \"a\"], \"c\": \"{\\\"a\\\": 1, \\\"a\\\": 2}\"}"));
        assertNull(JsonDuplicateKeys.find("{\"x\": {\"k\": 1}, \"y\": {\"k\": 1}}"));
        assertNull(JsonDuplicateKeys.find("[1, 2, \"x\"]"));
    }

    @Test
    void malformedInputNeverThrows() {
        for (String s : new String[] {"", "{", "}", "]]", "{\"a", "{\"a\\", "{\"\\u00", "{\"a\": 1,, \"a\"", "\"\\uZZZZ\""}) {
            JsonDuplicateKeys.find(s);
        }
        assertEquals("a", JsonDuplicateKeys.find("{\"a\": 1, \"a\": 2"), "a duplicate before the text breaks off");
    }

    @Test
    void theProblemNamesTheKey() {
        String p = JsonDuplicateKeys.problem("{\"n\": 1, \"n\": 2}".getBytes(StandardCharsets.UTF_8));
        assertTrue(p.contains("'n'"), p);
        assertNull(JsonDuplicateKeys.problem("{\"n\": 1}".getBytes(StandardCharsets.UTF_8)));
    }
}
