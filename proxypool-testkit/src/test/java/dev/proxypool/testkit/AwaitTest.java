package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

    /** An Await on a manual clock whose pauses advance the clock and are recorded, so nothing sleeps. */
    private static Await manual(ManualClock clock, List<Long> pauses, Duration timeout, Duration every) {
        return new Await(timeout, every, clock, n -> {
            pauses.add(n);
            clock.advanceNanos(n);
        });
    }

    @Test
    void returnsTheAcceptedValueOnceTheConditionBecomesTrue() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        int value = manual(clock, pauses, Duration.ofSeconds(5), Duration.ofMillis(50))
                .until("the counter to reach 4", calls::incrementAndGet, n -> n >= 4);
        assertEquals(4, value);
        assertEquals(3, pauses.size(), "one pause between each pair of probes: " + pauses);
    }

    @Test
    void succeedsAtOnceWithoutPausingWhenAlreadyTrue() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        manual(clock, pauses, Duration.ofSeconds(5), Duration.ofMillis(50)).until("true", () -> true);
        assertTrue(pauses.isEmpty(), "no pause when the first probe succeeds: " + pauses);
    }

    @Test
    void waitsForAnotherThreadOnTheRealClock() {
        AtomicBoolean flag = new AtomicBoolean();
        Thread.ofVirtual().start(() -> {
            Pace.sleepMillis(30); // the other thread's work, which the wait below must outlast
            flag.set(true);
        });
        Await.atMost(Duration.ofSeconds(10)).until("the flag set by the other thread", flag::get);
        assertTrue(flag.get());
    }

    @Test
    void timesOutWithWhatWasAwaitedAndTheLastSeenValue() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> manual(clock, pauses, Duration.ofSeconds(2), Duration.ofMillis(100))
                        .until("in-flight to drop to 0", () -> "in-flight=" + calls.incrementAndGet(), s -> false));
        String m = e.getMessage();
        assertTrue(m.contains("in-flight to drop to 0"), m);
        assertTrue(m.contains("PT2S"), m);
        assertTrue(m.contains("last seen: in-flight=" + calls.get()), m);
        long paused = pauses.stream().mapToLong(Long::longValue).sum();
        assertEquals(Duration.ofSeconds(2).toNanos(), paused, "the wait ends exactly at the deadline");
    }

    @Test
    void aProbeThatThrowsIsRetriedAndItsLastExceptionReported() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        String ok = manual(clock, pauses, Duration.ofSeconds(1), Duration.ofMillis(10))
                .until(
                        "a connection",
                        () -> {
                            if (calls.incrementAndGet() < 3) {
                                throw new IOException("refused #" + calls.get());
                            }
                            return "connected";
                        },
                        s -> true);
        assertEquals("connected", ok);

        AssertionError e = assertThrows(
                AssertionError.class,
                () -> manual(clock, pauses, Duration.ofMillis(100), Duration.ofMillis(10))
                        .until(
                                "a connection",
                                () -> {
                                    throw new IOException("refused");
                                },
                                s -> true));
        assertTrue(e.getMessage().contains("last seen: java.io.IOException: refused"), e.getMessage());
        assertInstanceOf(IOException.class, e.getCause());
    }

    @Test
    void pausesGrowFromOneMillisecondAndNeverExceedTheBoundOrTheDeadline() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        Duration bound = Duration.ofMillis(20);
        assertThrows(
                AssertionError.class,
                () -> manual(clock, pauses, Duration.ofMillis(205), bound).until("never", () -> false));
        assertEquals(1_000_000L, pauses.getFirst(), "the first pause is 1 ms");
        for (long p : pauses) {
            assertTrue(p > 0 && p <= bound.toNanos(), "pause " + p + " ns outside (0, " + bound + "]: " + pauses);
        }
        assertEquals(bound.toNanos(), pauses.get(pauses.size() - 2), "the pause reaches the bound: " + pauses);
        assertTrue(pauses.getLast() < bound.toNanos(), "the last pause is cut at the deadline: " + pauses);
        // 1+2+4+8+16 = 31 ms, then eight 20 ms pauses (191 ms), then the last 14 ms up to 205 ms.
        assertEquals(5 + 8 + 1, pauses.size(), "pauses: " + pauses);
    }

    @Test
    void theDefaultBoundIsFiftyMilliseconds() {
        ManualClock clock = new ManualClock();
        List<Long> pauses = new ArrayList<>();
        assertThrows(
                AssertionError.class,
                () -> new Await(Duration.ofSeconds(1), Duration.ofMillis(Await.DEFAULT_INTERVAL_MS), clock, n -> {
                            pauses.add(n);
                            clock.advanceNanos(n);
                        })
                        .until("never", () -> false));
        assertEquals(
                Duration.ofMillis(50).toNanos(),
                pauses.stream().mapToLong(Long::longValue).max().orElseThrow());
    }

    @Test
    void anInterruptStopsTheWaitAndKeepsTheFlag() {
        AssertionError e = assertThrows(AssertionError.class, () -> {
            Thread.currentThread().interrupt();
            Await.atMost(Duration.ofSeconds(30)).until("never", () -> false);
        });
        assertTrue(Thread.interrupted(), "the interrupt flag is set again");
        assertTrue(e.getMessage().contains("interrupted while waiting for never"), e.getMessage());
    }

    @Test
    void rejectsANonPositiveTimeoutOrInterval() {
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class, () -> Await.atMost(Duration.ZERO));
        assertTrue(t.getMessage().contains("timeout"), t.getMessage());
        IllegalArgumentException i = assertThrows(
                IllegalArgumentException.class,
                () -> Await.atMost(Duration.ofSeconds(1)).every(Duration.ofMillis(-1)));
        assertTrue(i.getMessage().contains("interval"), i.getMessage());
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
