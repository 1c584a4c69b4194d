package dev.proxypool.core.sticky;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StickyTableBoundTest {

    private final PoolFixture f = new PoolFixture();

    private StickyTable table(int maxEntries, Duration idle) {
        return new StickyTable(new StickyPolicy(
                true,
                StickyPolicy.DEFAULT_HEADER,
                Duration.ofMinutes(10),
                idle,
                StickyPolicy.OnLost.REPIN,
                maxEntries));
    }

    @Test
    void aMillionDistinctSessionsStayWithinTheBound() {
        StickyTable table = table(10_000, Duration.ofMinutes(5));
        int max = 0;
        for (int i = 0; i < 1_000_000; i++) {
            table.bind(new SessionKey("c", "r", "s" + i), "p" + (i % 100), PoolSnapshot.NO_DEADLINE, f.now());
            if ((i & 1023) == 0) {
                f.clock.advanceNanos(1_000);
            }
            max = Math.max(max, table.size());
        }
        assertTrue(max <= 10_000, "largest size " + max);
    }

    @Test
    void expiredBindingsAreEvictedBeforeLiveOnes() {
        StickyTable table = table(100, Duration.ofSeconds(60));
        for (int i = 0; i < 50; i++) {
            table.bind(new SessionKey("c", "r", "old" + i), "p", PoolSnapshot.NO_DEADLINE, f.now());
        }
        f.clock.advance(Duration.ofSeconds(61)); // the 50 old ones are idle now
        for (int i = 0; i < 60; i++) {
            table.bind(new SessionKey("c", "r", "new" + i), "p", PoolSnapshot.NO_DEADLINE, f.now());
        }
        for (int i = 0; i < 60; i++) {
            assertTrue(table.find(new SessionKey("c", "r", "new" + i)).isPresent(), "live binding new" + i);
        }
        assertEquals(60, table.size());
    }

    @Test
    void theLeastRecentlyUsedGoFirstWhenNoneExpired() {
        StickyTable table = table(100, Duration.ofMinutes(5));
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 1));
        PickRequest r = PickRequest.of(CandidateFilter.ANY, Strategy.RANDOM);
        for (int i = 0; i < 100; i++) {
            table.bind(new SessionKey("c", "r", "s" + i), s, 0, f.now());
            f.clock.advanceNanos(1_000);
        }
        f.clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 50; i++) { // s0..s49 are used again: now the most recent
            assertInstanceOf(StickyLookup.Bound.class, table.lookup(new SessionKey("c", "r", "s" + i), s, r, f.now()));
        }
        table.bind(new SessionKey("c", "r", "trigger"), s, 0, f.now()); // 101 > 100: sweep down to 90
        assertTrue(table.size() <= 100);
        for (int i = 0; i < 50; i++) {
            assertTrue(table.find(new SessionKey("c", "r", "s" + i)).isPresent(), "recently used s" + i + " kept");
        }
    }

    @Test
    void concurrentBindersKeepTheTableBounded() throws Exception {
        StickyTable table = table(5_000, Duration.ofMinutes(5));
        AtomicLong maxSeen = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 100_000; i++) {
                    table.bind(new SessionKey("c" + id, "r", "s" + i), "p", PoolSnapshot.NO_DEADLINE, f.now());
                    if ((i & 255) == 0) {
                        maxSeen.accumulateAndGet(table.size(), Math::max);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(table.size() <= 5_000 + 4, "final size " + table.size());
        assertTrue(maxSeen.get() <= 5_000 + 16, "largest observed size " + maxSeen.get());
    }
}
