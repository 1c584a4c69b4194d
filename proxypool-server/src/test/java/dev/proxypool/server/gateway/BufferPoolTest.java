package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link BufferPool}: reuse, a bound on what it keeps, and never one buffer to two holders at once. */
class BufferPoolTest {

    @Test
    void aGivenBufferIsTakenAgainAndForeignSizesAreIgnored() {
        BufferPool pool = new BufferPool(1024, 1);
        byte[] b = pool.take();
        assertEquals(1024, b.length);
        pool.give(b);
        assertSame(b, pool.take(), "reused, not allocated");
        pool.give(new byte[512]); // not ours: dropped
        pool.give(null);
        assertEquals(1024, pool.take().length);
    }

    @Test
    void keepsAtMostItsSlots() {
        BufferPool pool = new BufferPool(64, 4);
        List<byte[]> given = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] b = new byte[64];
            given.add(b);
            pool.give(b);
        }
        Map<byte[], Boolean> reused = new IdentityHashMap<>();
        for (byte[] g : given) {
            reused.put(g, Boolean.TRUE);
        }
        int fromPool = 0;
        for (int i = 0; i < 16; i++) {
            if (reused.containsKey(pool.take())) {
                fromPool++;
            }
        }
        assertTrue(fromPool <= 4, "kept " + fromPool + " of 16 in 4 slots");
    }

    @Test
    void concurrentHoldersNeverShareABuffer() throws Exception {
        BufferPool pool = new BufferPool(256, 8);
        Map<byte[], Boolean> held = new IdentityHashMap<>();
        AtomicInteger clashes = new AtomicInteger();
        int threads = 8;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 20_000; i++) {
                        byte[] a = pool.take();
                        byte[] b = pool.take();
                        synchronized (held) {
                            if (held.put(a, Boolean.TRUE) != null || held.put(b, Boolean.TRUE) != null || a == b) {
                                clashes.incrementAndGet();
                            }
                        }
                        synchronized (held) {
                            held.remove(a);
                            held.remove(b);
                        }
                        pool.give(a);
                        pool.give(b);
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        assertEquals(0, clashes.get(), "a buffer handed to two holders at once");
    }
}
