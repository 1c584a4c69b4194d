package dev.proxypool.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimiterTest {

    private final ManualClock clock = new ManualClock();

    private static int drain(RateLimiter r, String client) {
        int n = 0;
        while (r.tryAcquire(client)) {
            n++;
            if (n > 1_000_000) {
                throw new AssertionError("bucket never empties");
            }
        }
        return n;
    }

    @ParameterizedTest(name = "rps {0}: burst {1}")
    @CsvSource({"5, 5", "200, 200", "1, 1", "0.5, 1", "2.5, 2", "1000000, 1000000"})
    void anIdleClientGetsOneSecondsWorthAtOnce(double rps, int burst) {
        RateLimiter r = new RateLimiter(Map.of("alice", rps), clock);
        assertEquals(burst, drain(r, "alice"));
    }

    @Test
    void tokensRefillAtTheRateAndNeverBeyondTheBurst() {
        RateLimiter r = new RateLimiter(Map.of("alice", 5.0), clock);
        assertEquals(5, drain(r, "alice"));
        clock.advance(Duration.ofMillis(199));
        assertFalse(r.tryAcquire("alice"));
        clock.advance(Duration.ofMillis(1));
        assertTrue(r.tryAcquire("alice"));
        assertFalse(r.tryAcquire("alice"));
        clock.advance(Duration.ofMillis(600));
        assertEquals(3, drain(r, "alice"));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(5, drain(r, "alice"));
        clock.advance(Duration.ofHours(3));
        assertEquals(5, drain(r, "alice"));
    }

    @Test
    void fractionalRatesRefillSlowly() {
        RateLimiter r = new RateLimiter(Map.of("slow", 0.5), clock);
        assertTrue(r.tryAcquire("slow"));
        clock.advance(Duration.ofMillis(1999));
        assertFalse(r.tryAcquire("slow"));
        assertEquals(1_000_000, r.nanosUntilAvailable("slow"));
        clock.advance(Duration.ofMillis(1));
        assertEquals(0, r.nanosUntilAvailable("slow"));
        assertTrue(r.tryAcquire("slow"));
    }

    @Test
    void clientsHaveSeparateBuckets() {
        RateLimiter r = new RateLimiter(Map.of("alice", 2.0, "bob", 3.0), clock);
        assertEquals(2, drain(r, "alice"));
        assertEquals(3, drain(r, "bob"));
    }

    @Test
    void rpsZeroAndUnknownClientsAreUnlimitedAndCostNoState() {
        RateLimiter r = new RateLimiter(Map.of("free", 0.0, "paid", 10.0), clock);
        for (int i = 0; i < 100_000; i++) {
            assertTrue(r.tryAcquire("free"));
            assertTrue(r.tryAcquire("anonymous"));
        }
        assertFalse(r.limits("free"));
        assertFalse(r.limits("anonymous"));
        assertTrue(r.limits("paid"));
        assertEquals(0, r.nanosUntilAvailable("free"));
        assertEquals(10, drain(r, "paid"));
    }

    @Test
    void badRatesAreRefusedNamingTheClient() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new RateLimiter(Map.of("alice", -1.0), clock));
        assertTrue(e.getMessage().contains("alice") && e.getMessage().contains("rps"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(Map.of("alice", Double.NaN), clock));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RateLimiter(Map.of("alice", Double.POSITIVE_INFINITY), clock));
    }

    @Test
    void eightThreadsNeverTakeMoreThanTheBucketHolds() throws Exception {
        RateLimiter r = new RateLimiter(Map.of("alice", 1000.0), clock);
        assertEquals(1000, hammer(r, 8, 5_000));
        clock.advance(Duration.ofMillis(100));
        assertEquals(100, hammer(r, 8, 5_000));
        assertEquals(0, hammer(r, 8, 1_000));
    }

    @Test
    void concurrentRefillNeverExceedsBurstPlusRateTimesElapsed() throws Exception {
        RateLimiter r = new RateLimiter(Map.of("alice", 1000.0), clock);
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger taken = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    if (r.tryAcquire("alice")) {
                        taken.incrementAndGet();
                    }
                }
            }));
        }
        for (int step = 0; step < 200; step++) {
            clock.advance(Duration.ofMillis(1));
            Thread.onSpinWait();
        }
        done.set(true);
        for (Thread w : workers) {
            w.join();
        }
        int total = taken.get() + drain(r, "alice");
        assertTrue(total <= 1000 + 200, "took " + total + " tokens from a bucket that only ever held 1200");
        assertTrue(total >= 1000, "the initial burst alone holds 1000, got " + total);
    }

    private static int hammer(RateLimiter r, int threads, int triesEach) throws InterruptedException {
        AtomicInteger ok = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ts.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < triesEach; i++) {
                    if (r.tryAcquire("alice")) {
                        ok.incrementAndGet();
                    }
                }
            }));
        }
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        return ok.get();
    }

    @Test
    void tryAcquireAllocatesNothing() {
        RateLimiter r = new RateLimiter(Map.of("alice", 1_000_000.0), clock);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        int passed = 0;
        for (int i = 0; i < 200_000; i++) { // warm up: let the JIT compile the CAS loop
            passed += r.tryAcquire("alice") ? 1 : 0;
            passed += r.tryAcquire("nobody") ? 1 : 0;
        }
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 200_000; i++) {
            passed += r.tryAcquire("alice") ? 1 : 0;
            passed += r.tryAcquire("nobody") ? 1 : 0;
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertTrue(passed > 0);
        assertTrue(allocated < 64 * 1024, "400k tryAcquire calls allocated " + allocated + " bytes");
    }
}
