package dev.proxypool.core.sequential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FetchBackoffTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final FetchOutcome ERROR = new FetchOutcome.Error(FetchOutcome.ErrorKind.TIMEOUT, "slow");

    @Test
    void errorsDoubleTheBackoffUpToTheCap() {
        FetchBackoff b = new FetchBackoff();
        assertEquals(MINUTE.toNanos() * 3, b.record(ERROR, MINUTE), "1 min interval + 2 min backoff");
        assertEquals(1, b.consecutiveErrors());
        assertEquals(MINUTE.toNanos() * 2, b.backoffNanos());
        assertEquals(MINUTE.toNanos() * 5, b.record(ERROR, MINUTE), "+ 4 min");
        assertEquals(MINUTE.toNanos() * 9, b.record(ERROR, MINUTE), "+ 8 min");
        assertEquals(
                MINUTE.toNanos() + FetchBackoff.MAX_BACKOFF.toNanos(), b.record(ERROR, MINUTE), "capped at 10 min");
        for (int i = 0; i < 100; i++) { // the shift never overflows however long the streak
            b.record(ERROR, Duration.ofDays(1));
        }
        assertEquals(FetchBackoff.MAX_BACKOFF.toNanos(), b.backoffNanos());
        assertEquals(104, b.consecutiveErrors());
    }

    @Test
    void anyAnswerEndsTheErrorStreak() {
        FetchBackoff b = new FetchBackoff();
        b.record(ERROR, MINUTE);
        b.record(ERROR, MINUTE);
        assertEquals(MINUTE.toNanos(), b.record(FetchOutcome.DUPLICATE_ONLY, MINUTE));
        assertEquals(0, b.consecutiveErrors());
        assertEquals(0, b.backoffNanos());
        assertEquals(MINUTE.toNanos() * 3, b.record(ERROR, MINUTE), "a new streak starts from the first doubling");
    }

    @Test
    void emptyAnswersAreCountedNotBackedOff() {
        FetchBackoff b = new FetchBackoff();
        b.record(ERROR, MINUTE);
        assertEquals(MINUTE.toNanos(), b.record(FetchOutcome.EMPTY, MINUTE));
        assertEquals(MINUTE.toNanos(), b.record(FetchOutcome.EMPTY, MINUTE));
        assertEquals(2, b.consecutiveEmpty());
        assertEquals(0, b.consecutiveErrors());
        b.record(ERROR, MINUTE);
        assertEquals(2, b.consecutiveEmpty(), "an error does not end the empty streak");
        b.record(new FetchOutcome.Success(3), MINUTE);
        assertEquals(0, b.consecutiveEmpty());
    }

    @Test
    void aNonPositiveIntervalIsRefused() {
        FetchBackoff b = new FetchBackoff();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> b.record(FetchOutcome.EMPTY, Duration.ZERO));
        assertEquals("fetchInterval must be positive, got PT0S", e.getMessage());
    }
}
