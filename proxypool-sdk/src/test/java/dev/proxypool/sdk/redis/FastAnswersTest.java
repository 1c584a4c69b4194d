package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How RedisPoolStore reads the count=1 replies of extract_fast.lua (answersOf): a call of one request
 * is answered bare (its record, or nil where the fast path served none), a call of several with
 * {@code {3, record or nil...}} or {@code {0}}. The replies themselves, from a real Redis, are
 * ExtractionCommandCountTest's and FastRecordTest's.
 */
class FastAnswersTest {

    @Test
    void oneRequestIsAnsweredBare() {
        assertEquals(List.of("rec"), RedisPoolStore.answersOf("rec", 1));
        assertEquals(Arrays.asList((Object) null), RedisPoolStore.answersOf(null, 1), "nil: extract.lua goes on");
    }

    @Test
    void severalRequestsAreAnsweredByATable() {
        assertEquals(Arrays.asList("a", null, "c"), RedisPoolStore.answersOf(Arrays.asList(3L, "a", null, "c"), 3));
        assertEquals(Arrays.asList(null, null), RedisPoolStore.answersOf(List.of(0L), 2), "{0}: none served");
    }

    @Test
    void aBareAnswerToSeveralRequestsIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RedisPoolStore.answersOf("rec", 2));
        assertEquals("extract_fast.lua answered 2 requests with one value, not a table", e.getMessage());
    }
}
