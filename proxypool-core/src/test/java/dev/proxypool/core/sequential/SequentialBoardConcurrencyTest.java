package dev.proxypool.core.sequential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many threads feed outcomes at once; the board must move each routing exactly as a serial replay would. */
@Timeout(20)
class SequentialBoardConcurrencyTest {

    private static final int THREADS = 16;

    private record Heard(SequentialState before, SequentialState after, boolean transition) {}

    private static void hammer(int perThread, IntTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    task.run(thread, i);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(15, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
    }

    @FunctionalInterface
    private interface IntTask {
        void run(int thread, int i);
    }

    @Test
    void concurrentEmptiesCrossTheThresholdExactlyFloorNOverTTimes() throws Exception {
        ConcurrentLinkedQueue<Heard> heard = new ConcurrentLinkedQueue<>();
        SequentialBoard board = new SequentialBoard(new ManualClock(), (b, a, t) -> heard.add(new Heard(b, a, t)));
        board.register(new SequentialRouting("r", List.of("x", "a"), Exhaustion.STAY_LAST, 3));
        board.advance("r"); // now on its last upstream, where every crossing is visible
        heard.clear();
        int perThread = 1000;
        hammer(perThread, (t, i) -> board.record("a", FetchOutcome.EMPTY));
        int n = THREADS * perThread;
        long crossings = heard.stream().filter(Heard::transition).count();
        assertEquals(n / 3, crossings);
        SequentialState s = board.current("r");
        assertEquals(n % 3, s.consecutiveEmpty());
        assertEquals(1, s.index());
        assertEquals(n, heard.size(), "every Empty changed the state once");
        assertDeliveredInVersionOrder(heard);
    }

    @Test
    void concurrentEmptiesMoveEveryRoutingOfTheUpstreamExactlyOnce() throws Exception {
        ConcurrentLinkedQueue<Heard> heard = new ConcurrentLinkedQueue<>();
        SequentialBoard board = new SequentialBoard(new ManualClock(), (b, a, t) -> heard.add(new Heard(b, a, t)));
        int routings = 200;
        for (int r = 0; r < routings; r++) {
            board.register(new SequentialRouting("r" + r, List.of("a", "b", "c"), Exhaustion.STOP, 3));
        }
        hammer(50, (t, i) -> board.record("a", FetchOutcome.EMPTY));
        for (SequentialState s : board.snapshot()) {
            assertEquals("b", s.upstream(), s.routing() + " moved once, never skipped to c");
            assertEquals(0, s.consecutiveEmpty());
            assertEquals(3, s.version());
        }
        assertEquals(routings, heard.stream().filter(Heard::transition).count());
    }

    @Test
    void mixedOutcomesAndAdminActionsNeverSkipAStep() throws Exception {
        ConcurrentLinkedQueue<Heard> heard = new ConcurrentLinkedQueue<>();
        SequentialBoard board = new SequentialBoard(new ManualClock(), (b, a, t) -> heard.add(new Heard(b, a, t)));
        List<String> ups = List.of("a", "b", "c", "d");
        board.register(new SequentialRouting("loop", ups, Exhaustion.LOOP, 3));
        board.register(new SequentialRouting("loop2", List.of("c", "d", "a", "b"), Exhaustion.LOOP, 2));
        hammer(3000, (t, i) -> {
            SplittableRandom rnd = new SplittableRandom(t * 100_003L + i);
            String u = ups.get(rnd.nextInt(ups.size()));
            int k = rnd.nextInt(100);
            if (k < 70) {
                board.record(u, FetchOutcome.EMPTY);
            } else if (k < 85) {
                board.record(u, new FetchOutcome.Error(FetchOutcome.ErrorKind.TIMEOUT, "slow"));
            } else if (k < 95) {
                board.record(u, FetchOutcome.DUPLICATE_ONLY);
            } else if (k < 99) {
                board.record(u, new FetchOutcome.Success(1));
            } else {
                board.advance(rnd.nextBoolean() ? "loop" : "loop2");
            }
        });
        assertTrue(heard.stream().filter(Heard::transition).count() > 100, "the run moved the routings");
        Map<String, SequentialState> last = new HashMap<>();
        for (Heard h : heard) {
            SequentialState b = h.before();
            SequentialState a = h.after();
            assertEquals(b.version() + 1, a.version(), "versions have no gap");
            if (h.transition()) {
                int size = ups.size();
                assertEquals((b.index() + 1) % size, a.index(), "a loop routing moves exactly one step");
                assertEquals(0, a.consecutiveEmpty());
            } else {
                assertEquals(b.index(), a.index());
            }
            SequentialState prev = last.put(a.routing(), a);
            if (prev != null) {
                assertEquals(prev, b, "each change starts where the previous one ended");
            }
        }
        for (SequentialState s : board.snapshot()) {
            assertEquals(last.get(s.routing()), s, "the listener saw the final state last");
        }
    }

    /** Per routing, the listener hears versions 1, 2, 3, ... in order. */
    private static void assertDeliveredInVersionOrder(Iterable<Heard> heard) {
        Map<String, Long> expect = new HashMap<>();
        for (Heard h : heard) {
            long v = expect.getOrDefault(h.after().routing(), h.before().version()) + 1;
            assertEquals(v, h.after().version());
            expect.put(h.after().routing(), v);
        }
    }
}
