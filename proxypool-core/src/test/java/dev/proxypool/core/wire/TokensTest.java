package dev.proxypool.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void commaListsAreMatchedCaseInsensitivelyIgnoringOws() {
        assertTrue(Tokens.contains("keep-alive, Upgrade", "upgrade"));
        assertTrue(Tokens.contains(" \tclose\t ", "close"));
        assertFalse(Tokens.contains("closed, xclose", "close"));
        assertFalse(Tokens.contains("", "close"));
        assertEquals(2, Tokens.count("chunked, gzip ,CHUNKED", "chunked"));
        assertEquals(0, Tokens.count(",,", "chunked"));
        assertEquals("chunked", Tokens.last("gzip,  chunked "));
    }

    @Test
    void tokensFieldValuesAndLengths() {
        assertTrue(Tokens.isToken("X-Forwarded-For", 0, 15));
        assertFalse(Tokens.isToken("Bad Name", 0, 8));
        assertFalse(Tokens.isToken("é", 0, 1));
        assertFalse(Tokens.isToken("x", 1, 1));
        assertTrue(Tokens.isFieldValue("a\tb c~"));
        assertFalse(Tokens.isFieldValue("a\u0000b"));
        assertFalse(Tokens.isFieldValue("a\u007fb"));
        assertEquals(42, Tokens.parseLength("42"));
        assertEquals(-1, Tokens.parseLength("-1"));
        assertEquals(-1, Tokens.parseLength("1234567890123456789"));
        assertEquals(-1, Tokens.parseLength(""));
    }
}
