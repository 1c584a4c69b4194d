package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The coalescer on its own, with real threads: a caller alone goes at once, callers that arrive while
 * every slot is taken go together in the next call, in their order, each getting its own answer; a
 * call's failure reaches every caller of its batch and no other; the slots bound the calls in flight;
 * and under a storm of callers nothing is lost or answered twice. The Redis stores' use of it is
 * tested against Redis (RedisPoolStoreConcurrencyTest, ExtractionCommandCountTest).
 */
class CoalescerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aCallerAloneGoesAtOnceInABatchOfOne() {
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        Coalescer<Integer, String> c = new Coalescer<>(2, 8, WAIT, TooLong::new, batch -> {
            batches.add(List.copyOf(batch));
            return batch.stream().map(i -> "answer " + i).toList();
        });
        for (int i = 0; i < 5; i++) {
            assertEquals("answer " + i, c.submit(i));
        }
        assertEquals(List.of(List.of(0), List.of(1), List.of(2), List.of(3), List.of(4)), batches);
        assertEquals(5, c.calls());
        assertEquals(5, c.requests());
    }

    @Test
    void callersArrivingWhileTheSlotIsTakenGoTogetherInTheNextCall() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        Coalescer<Integer, String> c = new Coalescer<>(1, 8, WAIT, TooLong::new, batch -> {
            batches.add(List.copyOf(batch));
            if (batch.contains(0)) {
                firstRunning.countDown();
                await(releaseFirst);
            }
            return batch.stream().map(i -> "answer " + i).toList();
        });
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> first = pool.submit(() -> c.submit(0));
            assertTrue(firstRunning.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the first call runs");
            List<Future<String>> later = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                int n = i;
                later.add(pool.submit(() -> c.submit(n)));
                Await.standard().until("caller " + n + " queued", () -> c.queued() == n);
            }
            releaseFirst.countDown();
            assertEquals("answer 0", first.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            for (int i = 1; i <= 3; i++) {
                assertEquals("answer " + i, later.get(i - 1).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
        }
        assertEquals(List.of(List.of(0), List.of(1, 2, 3)), batches, "the three that waited, in one call");
        assertEquals(2, c.calls());
        assertEquals(4, c.requests());
    }

    @Test
    void aBatchIsCappedAndTheRestGoInTheNext() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        Coalescer<Integer, Integer> c = new Coalescer<>(1, 2, WAIT, TooLong::new, batch -> {
            batches.add(List.copyOf(batch));
            if (batch.contains(0)) {
                firstRunning.countDown();
                await(releaseFirst);
            }
            return batch.stream().map(i -> i * 10).toList();
        });
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> all = new ArrayList<>();
            all.add(pool.submit(() -> c.submit(0)));
            assertTrue(firstRunning.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            for (int i = 1; i <= 5; i++) {
                int n = i;
                all.add(pool.submit(() -> c.submit(n)));
                Await.standard().until("caller " + n + " queued", () -> c.queued() == n);
            }
            releaseFirst.countDown();
            for (int i = 0; i <= 5; i++) {
                assertEquals(i * 10, all.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
        }
        assertEquals(List.of(List.of(0), List.of(1, 2), List.of(3, 4), List.of(5)), batches, "oldest first, 2 a call");
    }

    @Test
    void aFailedCallFailsEveryCallerOfItsBatchAndNoOther() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        RuntimeException down = new IllegalStateException("redis down");
        AtomicInteger calls = new AtomicInteger();
        Coalescer<Integer, Integer> c = new Coalescer<>(1, 8, WAIT, TooLong::new, batch -> {
            int call = calls.incrementAndGet();
            if (call == 1) {
                firstRunning.countDown();
                await(releaseFirst);
                return batch;
            }
            if (call == 2) {
                throw down;
            }
            return batch;
        });
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Integer> first = pool.submit(() -> c.submit(0));
            assertTrue(firstRunning.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            List<Future<Integer>> failing = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                int n = i;
                failing.add(pool.submit(() -> c.submit(n)));
                Await.standard().until("caller " + n + " queued", () -> c.queued() == n);
            }
            releaseFirst.countDown();
            assertEquals(0, first.get(WAIT.toSeconds(), TimeUnit.SECONDS), "its own call succeeded");
            for (Future<Integer> f : failing) {
                ExecutionException e =
                        assertThrows(ExecutionException.class, () -> f.get(WAIT.toSeconds(), TimeUnit.SECONDS));
                assertSame(down, e.getCause(), "the batch's failure, as the call threw it");
            }
        }
        assertEquals(7, c.submit(7), "the next call serves again");
    }

    @Test
    void anAnswerOfTheWrongSizeFailsTheBatchInsteadOfMisdelivering() {
        Coalescer<Integer, Integer> c = new Coalescer<>(1, 8, WAIT, TooLong::new, batch -> List.of());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.submit(1));
        assertTrue(e.getMessage().contains("answered 0 of 1"), e.getMessage());
    }

    @Test
    void aStormOfCallersIsEachAnsweredOnceWithinTheSlots() throws Exception {
        int callers = 64;
        int each = 300;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        Coalescer<Integer, Integer> c = new Coalescer<>(2, 16, WAIT, TooLong::new, batch -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.onSpinWait();
            running.decrementAndGet();
            return batch.stream().map(i -> -i).toList();
        });
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                int base = t * each;
                done.add(pool.submit(() -> {
                    int wrong = 0;
                    for (int i = 1; i <= each; i++) {
                        if (c.submit(base + i) != -(base + i)) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> f : done) {
                assertEquals(0, f.get(60, TimeUnit.SECONDS), "answers that were another caller's");
            }
        }
        assertEquals(callers * each, c.requests(), "every request served once");
        assertTrue(mostRunning.get() <= 2, "calls in flight at once: " + mostRunning.get());
        assertEquals(0, c.queued());
    }

    @Test
    void aRequestQueuedTooLongLeavesTheQueueWithItsFailureAndIsNeverServed() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
        Coalescer<Integer, Integer> c = new Coalescer<>(1, 8, Duration.ofMillis(200), TooLong::new, batch -> {
            batches.add(List.copyOf(batch));
            if (batch.contains(0)) {
                firstRunning.countDown();
                await(releaseFirst);
            }
            return batch;
        });
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Integer> first = pool.submit(() -> c.submit(0));
            assertTrue(firstRunning.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            long start = System.nanoTime();
            Future<Integer> late = pool.submit(() -> c.submit(1));
            ExecutionException e =
                    assertThrows(ExecutionException.class, () -> late.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(e.getCause() instanceof TooLong, "the queue's failure: " + e.getCause());
            assertTrue(waitedMillis >= 200 && waitedMillis < 5_000, "waited " + waitedMillis + " ms");
            assertEquals(0, c.queued(), "it left the queue");
            assertEquals(1, c.tooLongWaits());
            releaseFirst.countDown();
            assertEquals(0, first.get(WAIT.toSeconds(), TimeUnit.SECONDS), "the call in flight still answers");
        }
        assertEquals(2, c.submit(2));
        assertEquals(List.of(List.of(0), List.of(2)), batches, "the request that gave up never reached a call");
    }

    /** The failure of a request that waited too long in the queue. */
    private static final class TooLong extends RuntimeException {
        TooLong() {
            super("waited too long for a call");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the call");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
