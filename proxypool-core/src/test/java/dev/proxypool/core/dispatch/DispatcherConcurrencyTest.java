package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.snapshot.LiveSnapshot;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 8 threads × 100,000 pick+release cycles over 4 proxies with limits 1-2 (5 units for 8 threads),
 * while one of the threads keeps swapping in new snapshots (the same proxies, a subset, a
 * reordering) built from the same long-lived runtimes. Invariants: no proxy ever
 * carries more than its limit (observed by a per-proxy counter held between pick and release), and
 * every counter ends at zero.
 */
class DispatcherConcurrencyTest {

    private static final int THREADS = 8;
    private static final int CYCLES = 100_000;

    /** The same proxies, one left out, or reversed (new slots), in turn. */
    private static List<Proxy> variant(List<Proxy> proxies, int round) {
        List<Proxy> next = new ArrayList<>(proxies);
        if (round % 3 == 1) {
            next.remove(round % next.size());
        } else if (round % 3 == 2) {
            java.util.Collections.reverse(next);
        }
        return next;
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void limitsHoldAndCountersReturnToZeroAcrossSnapshotSwaps(Strategy strategy) throws Exception {
        PoolFixture f = new PoolFixture();
        List<Proxy> proxies = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // 5 units of capacity for 8 threads: picks do find everything busy
            proxies.add(PoolFixture.proxy("p" + i)
                    .upstream(i < 2 ? "A" : "B")
                    .maxConcurrency(i == 1 ? 2 : 1)
                    .weight(1 + i)
                    .build());
        }
        LiveSnapshot live = new LiveSnapshot(f.build(proxies));
        CandidateFilter filter = CandidateFilter.ANY.withUpstreams(List.of("A", "B"));
        Dispatcher dispatcher = new Dispatcher();
        Map<String, AtomicInteger> holding = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> maxSeen = new ConcurrentHashMap<>();
        for (Proxy p : proxies) {
            holding.put(p.id(), new AtomicInteger());
            maxSeen.put(p.id(), new AtomicInteger());
        }
        AtomicLong picks = new AtomicLong();
        AtomicLong misses = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);

        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int seed = t;
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    PickRequest base = new PickRequest(filter, strategy, "key", "", List.of(), 1);
                    for (int i = 0; i < CYCLES; i++) {
                        if (seed == 0 && i % 100 == 0) { // worker 0 swaps snapshots while the others pick
                            live.publish(f.build(variant(proxies, i / 100)));
                        }
                        PickRequest r =
                                strategy == Strategy.CONSISTENT_HASH ? base.withHashKey("k" + (i + seed) % 64) : base;
                        PoolSnapshot s = live.current();
                        PickResult result = dispatcher.pick(s, r, f.now());
                        if (result instanceof Picked p) {
                            String id = p.proxy().id();
                            int now = holding.get(id).incrementAndGet();
                            maxSeen.get(id).accumulateAndGet(now, Math::max);
                            if ((i & 7) == 0) {
                                Thread.yield(); // hold the proxy across a reschedule: real overlap
                            }
                            holding.get(id).decrementAndGet();
                            p.reservation().release();
                            picks.incrementAndGet();
                        } else if (((NoCandidate) result).reason() == NoCandidate.Reason.BUSY) {
                            misses.incrementAndGet();
                        } else {
                            throw new AssertionError("unexpected " + result);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        System.out.printf(
                "%s: %d picks, %d no-candidate (all busy), %d snapshot versions%n",
                strategy, picks.get(), misses.get(), live.version());
        assertEquals((long) THREADS * CYCLES, picks.get() + misses.get());
        assertTrue(picks.get() > 10_000 && misses.get() > 0, "capacity was contended");
        for (Proxy p : proxies) {
            ProxyRuntime rt = f.runtime(p.id());
            assertTrue(
                    maxSeen.get(p.id()).get() <= p.maxConcurrency(),
                    p.id() + " carried " + maxSeen.get(p.id()) + " > limit " + p.maxConcurrency());
            assertEquals(0, rt.capacity().inFlight(), p.id() + " in-flight after the run");
        }
    }
}
