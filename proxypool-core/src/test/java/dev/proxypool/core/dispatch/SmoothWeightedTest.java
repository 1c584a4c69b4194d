package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SmoothWeightedTest {

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();

    private String pickAndRelease(PoolSnapshot s, PickRequest r) {
        Picked p = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
        p.reservation().release();
        return p.proxy().id();
    }

    @ParameterizedTest
    @EnumSource(
            value = Strategy.class,
            names = {"ROUND_ROBIN", "WEIGHTED"})
    void weights511GiveTheNginxSequence(Strategy strategy) {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("a").weight(5).build(),
                PoolFixture.proxy("b").weight(1).build(),
                PoolFixture.proxy("c").weight(1).build());
        PickRequest r = PickRequest.of(CandidateFilter.ANY, strategy);
        List<String> seq = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            seq.add(pickAndRelease(s, r));
        }
        assertEquals(List.of("a", "a", "b", "a", "c", "a", "a", "a", "a", "b", "a", "c", "a", "a"), seq);
    }

    @Test
    void equalWeightsRotate() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        PickRequest r = PickRequest.of(CandidateFilter.ANY, Strategy.ROUND_ROBIN);
        List<String> seq = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            seq.add(pickAndRelease(s, r));
        }
        assertEquals(List.of("p0", "p1", "p2", "p3", "p0", "p1", "p2", "p3"), seq);
    }

    @Test
    void aBusyProxysTurnPassesToTheNextOne() {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("a").weight(5).maxConcurrency(1).build(),
                PoolFixture.proxy("b").weight(1).build(),
                PoolFixture.proxy("c").weight(1).build());
        PickRequest r = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);
        Picked held = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
        assertEquals("a", held.proxy().id());
        for (int i = 0; i < 20; i++) {
            assertTrue(!pickAndRelease(s, r).equals("a"));
        }
        held.reservation().release();
    }

    /** Weights 1..5 over 2,000 proxies (the spread schedule): per-weight shares within 2% of the ideal. */
    @Test
    void largeSetsKeepWeightedRatios() {
        List<Proxy> proxies = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            proxies.add(PoolFixture.proxy("w" + i).weight(1 + i % 5).build());
        }
        PoolSnapshot s = f.build(proxies);
        PickRequest r = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);
        CandidateSet set = s.candidates(CandidateFilter.ANY);
        WeightedSchedule schedule = set.derived(WeightedSchedule.KEY);
        assertEquals(6000, schedule.period());
        assertTrue(2000L * 6000 > WeightedSchedule.EXACT_WORK_LIMIT, "this test must exercise the spread schedule");
        Map<Integer, Integer> byWeight = new HashMap<>();
        int picks = 60_000;
        for (int i = 0; i < picks; i++) {
            String id = pickAndRelease(s, r);
            byWeight.merge(1 + Integer.parseInt(id.substring(1)) % 5, 1, Integer::sum);
        }
        for (int w = 1; w <= 5; w++) {
            double share = byWeight.get(w) / (double) picks;
            assertEquals(w / 15.0, share, 0.02, "share of weight " + w);
        }
    }

    /** Each proxy appears exactly weight times per period, and its turns are evenly spaced (smooth). */
    @Test
    void theSpreadScheduleIsExactPerPeriodAndSmooth() {
        int[] weights = new int[3000];
        int period = 0;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = i % 10 == 0 ? 50 : 1 + i % 3;
            period += weights[i];
        }
        int[] order = WeightedSchedule.spread(weights, period);
        int[] count = new int[weights.length];
        int[] last = new int[weights.length];
        int[] maxGap = new int[weights.length];
        java.util.Arrays.fill(last, -1);
        for (int pos = 0; pos < 2 * period; pos++) {
            int i = order[pos % period];
            if (pos < period) {
                count[i]++;
            }
            if (last[i] >= 0) {
                maxGap[i] = Math.max(maxGap[i], pos - last[i]);
            }
            last[i] = pos;
        }
        for (int i = 0; i < weights.length; i++) {
            assertEquals(weights[i], count[i], "picks of candidate " + i + " per period");
            double ideal = period / (double) weights[i];
            assertTrue(
                    maxGap[i] <= ideal * 1.5 + 2,
                    "candidate " + i + " (weight " + weights[i] + ") gap " + maxGap[i] + " vs ideal " + ideal);
        }
    }

    @Test
    void theExactScheduleMatchesNginxForSmallSets() {
        assertEquals(List.of(0, 0, 1, 0, 2, 0, 0), boxed(WeightedSchedule.exact(new int[] {5, 1, 1}, 7)));
        assertEquals(List.of(0, 1, 2, 0, 0, 1, 0, 2, 1, 0), boxed(WeightedSchedule.exact(new int[] {5, 3, 2}, 10)));
    }

    private static List<Integer> boxed(int[] a) {
        List<Integer> out = new ArrayList<>();
        for (int x : a) {
            out.add(x);
        }
        return out;
    }

    /** Concurrent pickers share the cursor: whole periods still give every proxy exactly its weight. */
    @Test
    void concurrentPickersKeepExactCountsPerPeriod() throws Exception {
        List<Proxy> proxies = new ArrayList<>();
        int period = 0;
        for (int i = 0; i < 20; i++) {
            proxies.add(PoolFixture.proxy("c" + i)
                    .weight(1 + i % 4)
                    .maxConcurrency(1000)
                    .build());
            period += 1 + i % 4;
        }
        PoolSnapshot s = f.build(proxies);
        PickRequest r = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);
        int threads = 4;
        int perThread = period * 500;
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perThread; i++) {
                    counts.computeIfAbsent(pickAndRelease(s, r), k -> new AtomicInteger())
                            .incrementAndGet();
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        for (int i = 0; i < 20; i++) {
            assertEquals((1 + i % 4) * 500 * threads, counts.get("c" + i).get(), "picks of c" + i);
        }
    }
}
