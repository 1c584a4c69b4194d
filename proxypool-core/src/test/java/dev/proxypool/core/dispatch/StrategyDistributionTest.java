package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrategyDistributionTest {

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();

    private Map<String, Integer> histogram(PoolSnapshot s, PickRequest r, int picks) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < picks; i++) {
            Picked p = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
            p.reservation().release();
            counts.merge(p.proxy().id(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void randomIsRoughlyUniform() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 10));
        Map<String, Integer> counts = histogram(s, PickRequest.of(CandidateFilter.ANY, Strategy.RANDOM), 100_000);
        assertEquals(10, counts.size());
        counts.forEach((id, n) -> assertEquals(10_000, n, 600, id)); // ~6 standard deviations
    }

    @Test
    void leastInFlightPrefersIdleProxies() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        List<Reservation> load = new ArrayList<>();
        for (int i = 1; i < 4; i++) { // p1..p3 carry 3 requests each, p0 is idle
            for (int k = 0; k < 3; k++) {
                load.add(s.runtime(s.slotOf("p" + i)).capacity().tryReserve());
            }
        }
        Map<String, Integer> counts =
                histogram(s, PickRequest.of(CandidateFilter.ANY, Strategy.LEAST_IN_FLIGHT), 20_000);
        // p0 wins every pair it is drawn in: P = 1 - (3/4)(2/3) = 1/2; the others 1/6 each
        assertEquals(0.5, counts.get("p0") / 20_000.0, 0.03);
        load.forEach(Reservation::release);
    }

    @Test
    void leastInFlightWithTwoProxiesAlwaysTakesTheIdleOne() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 2));
        Reservation busy = s.runtime(s.slotOf("p1")).capacity().tryReserve();
        Map<String, Integer> counts = histogram(s, PickRequest.of(CandidateFilter.ANY, Strategy.LEAST_IN_FLIGHT), 1000);
        assertEquals(Map.of("p0", 1000), counts);
        busy.release();
    }

    @Test
    void latencyPrefersFastProxiesWithoutFloodingTheFastest() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        long[] latenciesMs = {10, 20, 40, 80};
        for (int i = 0; i < 4; i++) {
            s.runtime(s.slotOf("p" + i))
                    .health()
                    .recordSuccess(Admission.ADMITTED, latenciesMs[i] * 1_000_000, f.now());
        }
        Map<String, Integer> counts = histogram(s, PickRequest.of(CandidateFilter.ANY, Strategy.LATENCY), 20_000);
        // two choices: rank k of 4 wins with probability (4-k-1)·2/12 → 1/2, 1/3, 1/6, 0
        assertEquals(0.5, counts.get("p0") / 20_000.0, 0.03);
        assertEquals(1 / 3.0, counts.get("p1") / 20_000.0, 0.03);
        assertEquals(1 / 6.0, counts.get("p2") / 20_000.0, 0.03);
        assertTrue(counts.getOrDefault("p3", 0) == 0, "the slowest never wins a comparison");
    }

    @Test
    void unknownLatencyCountsAsFastest() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 2));
        s.runtime(s.slotOf("p1")).health().recordSuccess(Admission.ADMITTED, 5_000_000, f.now());
        Map<String, Integer> counts = histogram(s, PickRequest.of(CandidateFilter.ANY, Strategy.LATENCY), 500);
        assertEquals(Map.of("p0", 500), counts);
    }

    @Test
    void everyStrategyPicksFromASingleCandidate() {
        PoolSnapshot s = f.build(PoolFixture.proxy("only").build());
        for (Strategy strategy : Strategy.values()) {
            PickRequest r = new PickRequest(CandidateFilter.ANY, strategy, "key", "", List.of(), 0);
            assertEquals(Map.of("only", 50), histogram(s, r, 50), strategy.toString());
        }
    }
}
