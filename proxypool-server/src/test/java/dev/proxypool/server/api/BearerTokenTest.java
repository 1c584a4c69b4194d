package dev.proxypool.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one reading of {@code Authorization: Bearer}: scheme case, separators, whitespace, length, field count. */
class BearerTokenTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            ignoreLeadingAndTrailingWhitespace = false,
            value = {
                "Bearer tok-1|tok-1",
                "bearer tok-1|tok-1",
                "BEARER tok-1|tok-1",
                "bEaReR tok-1|tok-1",
                "Bearer   tok-1|tok-1",
                "Bearer\ttok-1|tok-1",
                "Bearer tok-1  |tok-1",
                "Bearer tok-1\t|tok-1",
                "  Bearer tok-1|tok-1",
                "\tBearer tok-1 |tok-1",
                "Bearer Tok-1|Tok-1",
                "Bearer |NULL",
                "Bearer    |NULL",
                "Bearer|NULL",
                "Bearertok-1|NULL",
                "Bearer-tok-1|NULL",
                "Basic dG9rLTE=|NULL",
                "tok-1|NULL",
                "Bear tok-1|NULL",
                "''|NULL",
                "NULL|NULL",
            })
    void oneHeaderValue(String value, String token) {
        assertEquals(Optional.ofNullable(token), BearerToken.parse(value));
    }

    @Test
    void theLengthLimitCountsTheWholeValue() {
        String head = "Bearer ";
        String atLimit = head + "t".repeat(BearerToken.MAX_HEADER - head.length());
        assertEquals(BearerToken.MAX_HEADER, atLimit.length());
        assertEquals(Optional.of(atLimit.substring(head.length())), BearerToken.parse(atLimit));
        assertEquals(Optional.empty(), BearerToken.parse(atLimit + "t"));
        assertEquals(Optional.empty(), BearerToken.parse(head + "tok-1" + " ".repeat(BearerToken.MAX_HEADER)));
    }

    @Test
    void exactlyOneAuthorizationField() {
        assertEquals(Optional.of("tok-1"), BearerToken.of(List.of("Bearer tok-1")));
        assertEquals(Optional.empty(), BearerToken.of(List.of()));
        assertEquals(Optional.empty(), BearerToken.of(List.of("Bearer tok-1", "Bearer tok-1")));
        assertEquals(Optional.empty(), BearerToken.of(List.of("Basic dG9rLTE=", "Bearer tok-1")));
    }

    @Test
    void oneChallenge() {
        assertEquals("Bearer realm=\"proxypool\"", BearerToken.CHALLENGE);
    }
}
