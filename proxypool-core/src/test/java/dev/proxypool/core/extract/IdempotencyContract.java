package dev.proxypool.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Idempotency keys: started, in progress, replay, mismatch, abandon, retention, timeout, size cap, limits. */
public interface IdempotencyContract extends StoreUnderTest {

    IdempotencyKey K1 = new IdempotencyKey("alice", "order-1");

    @Test
    default void firstCallStartsThenInProgressThenReplay() {
        assertEquals(IdempotencyStart.STARTED, store().beginIdempotent(K1, "fp-a", now()));
        assertEquals(IdempotencyStart.IN_PROGRESS, store().beginIdempotent(K1, "fp-a", now()));
        assertTrue(store().completeIdempotent(K1, "fp-a", "{\"extracted\":3}", now()));
        assertEquals(new IdempotencyStart.Replay("{\"extracted\":3}"), store().beginIdempotent(K1, "fp-a", now()));
        assertEquals(new IdempotencyStart.Replay("{\"extracted\":3}"), store().beginIdempotent(K1, "fp-a", now()));
    }

    @Test
    default void sameKeyWithAnotherBodyIsAMismatch() {
        store().beginIdempotent(K1, "fp-a", now());
        assertEquals(IdempotencyStart.MISMATCH, store().beginIdempotent(K1, "fp-b", now()));
        store().completeIdempotent(K1, "fp-a", "r", now());
        assertEquals(IdempotencyStart.MISMATCH, store().beginIdempotent(K1, "fp-b", now()));
        assertEquals(new IdempotencyStart.Replay("r"), store().beginIdempotent(K1, "fp-a", now()));
    }

    @Test
    default void completeWithAnotherBodyStoresNothing() {
        store().beginIdempotent(K1, "fp-a", now());
        assertFalse(store().completeIdempotent(K1, "fp-b", "other", now()));
        assertEquals(IdempotencyStart.IN_PROGRESS, store().beginIdempotent(K1, "fp-a", now()));
    }

    @Test
    default void abandonLetsARetryStart() {
        store().beginIdempotent(K1, "fp-a", now());
        assertFalse(store().abandonIdempotent(K1, "fp-b"));
        assertTrue(store().abandonIdempotent(K1, "fp-a"));
        assertFalse(store().abandonIdempotent(K1, "fp-a"));
        assertEquals(IdempotencyStart.STARTED, store().beginIdempotent(K1, "fp-b", now()));
        store().completeIdempotent(K1, "fp-b", "r", now());
        assertFalse(store().abandonIdempotent(K1, "fp-b"), "a completed response is not abandoned");
        assertEquals(new IdempotencyStart.Replay("r"), store().beginIdempotent(K1, "fp-b", now()));
    }

    @Test
    default void completedResponseIsReplayedUntilItsRetentionEnds() {
        PoolStore s = newStore(StoreSettings.builder()
                .idempotencyRetention(Duration.ofHours(1))
                .build());
        Instant t0 = now();
        s.beginIdempotent(K1, "fp-a", t0);
        s.completeIdempotent(K1, "fp-a", "r", t0.plusSeconds(10));
        Instant end = t0.plusSeconds(10).plus(Duration.ofHours(1));
        assertEquals(new IdempotencyStart.Replay("r"), s.beginIdempotent(K1, "fp-a", end.minusSeconds(1)));
        s.purgeExpired(end.minusSeconds(1));
        assertEquals(new IdempotencyStart.Replay("r"), s.beginIdempotent(K1, "fp-a", end.minusSeconds(1)));
        assertEquals(IdempotencyStart.STARTED, s.beginIdempotent(K1, "fp-b", end));
    }

    @Test
    default void defaultRetentionIsTwentyFourHours() {
        Instant t0 = now();
        store().beginIdempotent(K1, "fp-a", t0);
        store().completeIdempotent(K1, "fp-a", "r", t0);
        assertEquals(
                new IdempotencyStart.Replay("r"),
                store().beginIdempotent(
                                K1, "fp-a", t0.plus(Duration.ofHours(24)).minusSeconds(1)));
        assertEquals(IdempotencyStart.STARTED, store().beginIdempotent(K1, "fp-a", t0.plus(Duration.ofHours(24))));
    }

    @Test
    default void startedKeyTimesOutSoACrashedRequestDoesNotBlockRetries() {
        PoolStore s = newStore(StoreSettings.builder()
                .idempotencyInProgressTimeout(Duration.ofMinutes(2))
                .build());
        Instant t0 = now();
        assertEquals(IdempotencyStart.STARTED, s.beginIdempotent(K1, "fp-a", t0));
        assertEquals(
                IdempotencyStart.IN_PROGRESS,
                s.beginIdempotent(K1, "fp-a", t0.plus(Duration.ofMinutes(2)).minusSeconds(1)));
        assertEquals(IdempotencyStart.STARTED, s.beginIdempotent(K1, "fp-a", t0.plus(Duration.ofMinutes(2))));
    }

    @Test
    default void sizeCapEvictsTheOldestKeys() {
        PoolStore s = newStore(StoreSettings.builder().idempotencyMaxEntries(3).build());
        for (int i = 1; i <= 4; i++) {
            assertEquals(
                    IdempotencyStart.STARTED, s.beginIdempotent(new IdempotencyKey("alice", "k" + i), "fp", now()));
        }
        s.completeIdempotent(new IdempotencyKey("alice", "k2"), "fp", "r2", now());
        assertEquals(
                new IdempotencyStart.Replay("r2"), s.beginIdempotent(new IdempotencyKey("alice", "k2"), "fp", now()));
        assertEquals(IdempotencyStart.IN_PROGRESS, s.beginIdempotent(new IdempotencyKey("alice", "k3"), "fp", now()));
        assertEquals(IdempotencyStart.IN_PROGRESS, s.beginIdempotent(new IdempotencyKey("alice", "k4"), "fp", now()));
        assertEquals(
                IdempotencyStart.STARTED,
                s.beginIdempotent(new IdempotencyKey("alice", "k1"), "fp", now()),
                "the oldest key was evicted");
    }

    @Test
    default void keysAreSeparatePerClient() {
        store().beginIdempotent(new IdempotencyKey("alice", "same"), "fp-a", now());
        assertEquals(
                IdempotencyStart.STARTED, store().beginIdempotent(new IdempotencyKey("bob", "same"), "fp-b", now()));
        assertEquals(
                IdempotencyStart.STARTED, store().beginIdempotent(new IdempotencyKey("alice", "Same"), "fp-b", now()));
    }

    @Test
    default void keysAreAtMost255Characters() {
        IdempotencyKey longest = new IdempotencyKey("alice", "k".repeat(254) + "\u00e9");
        assertEquals(IdempotencyStart.STARTED, store().beginIdempotent(longest, "fp", now()));
        assertTrue(store().completeIdempotent(longest, "fp", "r", now()));
        assertEquals(new IdempotencyStart.Replay("r"), store().beginIdempotent(longest, "fp", now()));

        IllegalArgumentException tooLong =
                assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey("alice", "k".repeat(256)));
        assertEquals("Idempotency-Key must be at most 255 characters, got 256", tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey("alice", ""));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey("alice", "a\nb"));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(" ", "k"));
        assertThrows(IllegalArgumentException.class, () -> store().beginIdempotent(K1, "", now()));
    }

    @Test
    default void concurrentCallsWithOneKeyStartExactlyOnce() throws Exception {
        int threads = 16;
        for (int round = 0; round < 20; round++) {
            IdempotencyKey key = new IdempotencyKey("alice", "race-" + round);
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<IdempotencyStart>> answers = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    answers.add(pool.submit(() -> {
                        go.await();
                        return store().beginIdempotent(key, "fp", now());
                    }));
                }
                go.countDown();
                int started = 0;
                for (Future<IdempotencyStart> f : answers) {
                    IdempotencyStart a = f.get(10, TimeUnit.SECONDS);
                    if (a instanceof IdempotencyStart.Started) {
                        started++;
                    } else {
                        assertEquals(IdempotencyStart.IN_PROGRESS, a);
                    }
                }
                assertEquals(1, started, "round " + round);
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
