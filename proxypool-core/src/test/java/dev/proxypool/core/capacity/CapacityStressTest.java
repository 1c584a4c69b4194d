package dev.proxypool.core.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 8 threads × 100,000 reserve/release cycles over a few small cells: inside every critical section
 * the number of holders (counted independently of the cell) never exceeds the limit, and at the end
 * nothing is in flight or active.
 */
class CapacityStressTest {

    private static final int THREADS = 8;
    private static final int CYCLES = 100_000;
    private static final int[] LIMITS = {1, 2, 3};

    @Test
    @Timeout(20)
    void inFlightNeverExceedsAnyLimitAndDrainsToZero() throws Exception {
        CapacityCell[] cells = new CapacityCell[LIMITS.length];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = new CapacityCell(LIMITS[i]);
        }
        AtomicIntegerArray holders = new AtomicIntegerArray(cells.length);
        AtomicIntegerArray maxHolders = new AtomicIntegerArray(cells.length);
        AtomicIntegerArray maxInFlight = new AtomicIntegerArray(cells.length);
        AtomicLong granted = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicInteger negativeActive = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    for (int i = 0; i < CYCLES; i++) {
                        int c = rnd.nextInt(cells.length);
                        CapacityCell cell = cells[c];
                        Reservation r = cell.tryReserve();
                        if (r == null) {
                            refused.incrementAndGet();
                            continue;
                        }
                        granted.incrementAndGet();
                        int h = holders.incrementAndGet(c);
                        accumulateMax(maxHolders, c, h);
                        accumulateMax(maxInFlight, c, cell.inFlight());
                        if ((i & 7) == 0) {
                            Thread.yield(); // a holder descheduled mid-request: others pile up against the limit
                        }
                        int path = rnd.nextInt(4);
                        if (path != 0) {
                            r.activate();
                        }
                        if (cell.active() < 0) {
                            negativeActive.incrementAndGet();
                        }
                        holders.decrementAndGet(c); // before giving the unit back: the next holder may enter at once
                        boolean ended = switch (path) {
                            case 0, 1 -> r.cancel();
                            default -> r.release();
                        };
                        if (!ended || r.release() || r.cancel()) {
                            throw new AssertionError("ending must succeed once, then be a no-op");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(18));
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals((long) THREADS * CYCLES, granted.get() + refused.get());
        assertTrue(refused.get() > 0, "the limits were actually contended");
        for (int c = 0; c < cells.length; c++) {
            assertTrue(
                    maxHolders.get(c) <= LIMITS[c],
                    "cell " + c + ": " + maxHolders.get(c) + " holders > limit " + LIMITS[c]);
            assertTrue(
                    maxInFlight.get(c) <= LIMITS[c],
                    "cell " + c + ": in-flight " + maxInFlight.get(c) + " > limit " + LIMITS[c]);
            assertEquals(0, cells[c].inFlight(), "cell " + c + " leaked " + cells[c]);
            assertEquals(0, cells[c].active(), "cell " + c + " active " + cells[c]);
        }
        assertEquals(
                LIMITS[LIMITS.length - 1],
                maxHolders.get(LIMITS.length - 1),
                "the largest cell was filled to its limit");
        assertEquals(0, negativeActive.get(), "active count observed below zero");
    }

    private static void accumulateMax(AtomicIntegerArray max, int i, int value) {
        for (; ; ) {
            int m = max.get(i);
            if (value <= m || max.compareAndSet(i, m, value)) {
                return;
            }
        }
    }
}
