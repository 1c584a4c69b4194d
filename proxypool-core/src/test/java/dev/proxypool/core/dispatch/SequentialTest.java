package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** docs/design.md#sequential-switching (Q5): serve the current upstream; earlier upstreams drain; later ones are not used yet. */
class SequentialTest {

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();
    private final CandidateFilter abc = CandidateFilter.ANY.withUpstreams(List.of("A", "B", "C"));

    private PoolSnapshot pool() {
        return f.build(
                PoolFixture.proxy("a1").upstream("A").maxConcurrency(1).build(),
                PoolFixture.proxy("a2").upstream("A").maxConcurrency(1).build(),
                PoolFixture.proxy("b1").upstream("B").maxConcurrency(1).build(),
                PoolFixture.proxy("b2").upstream("B").maxConcurrency(1).build(),
                PoolFixture.proxy("c1").upstream("C").maxConcurrency(1).build());
    }

    private PickRequest at(int index) {
        return PickRequest.of(abc, Strategy.SEQUENTIAL).withUpstreamIndex(index);
    }

    /** The ids of successive held picks until the pool is drained, in pick order. */
    private List<String> drainOrder(PoolSnapshot s, PickRequest r, List<Reservation> held) {
        List<String> ids = new ArrayList<>();
        while (dispatcher.pick(s, r, f.now()) instanceof Picked p) {
            ids.add(p.proxy().id());
            held.add(p.reservation());
        }
        return ids;
    }

    @Test
    void theCurrentUpstreamIsPreferredThenEarlierOnesInListOrder() {
        PoolSnapshot s = pool();
        List<Reservation> held = new ArrayList<>();
        List<String> order = drainOrder(s, at(2), held);
        assertEquals("c1", order.get(0));
        assertEquals(Set.of("a1", "a2"), new HashSet<>(order.subList(1, 3)), "A (first in the list) drains next");
        assertEquals(Set.of("b1", "b2"), new HashSet<>(order.subList(3, 5)));
        assertEquals(
                NoCandidate.Reason.BUSY,
                assertInstanceOf(NoCandidate.class, dispatcher.pick(s, at(2), f.now()))
                        .reason());
        held.forEach(Reservation::release);
    }

    @Test
    void laterUpstreamsAreNotUsed() {
        PoolSnapshot s = pool();
        List<Reservation> held = new ArrayList<>();
        assertEquals(Set.of("b1", "b2", "a1", "a2"), new HashSet<>(drainOrder(s, at(1), held)));
        held.forEach(Reservation::release);
        held.clear();
        assertEquals(Set.of("a1", "a2"), new HashSet<>(drainOrder(s, at(0), held)));
        held.forEach(Reservation::release);
    }

    @Test
    void whileTheCurrentUpstreamHasCapacityOnlyItServes() {
        PoolSnapshot s = pool();
        for (int i = 0; i < 100; i++) {
            Picked p = assertInstanceOf(Picked.class, dispatcher.pick(s, at(1), f.now()));
            assertEquals("B", p.proxy().upstream());
            p.reservation().release();
        }
    }

    @Test
    void anEmptyCurrentUpstreamFallsBackAndNothingAnywhereIsNoMatch() {
        PoolSnapshot s = f.build(PoolFixture.proxy("a1").upstream("A").build());
        Picked p = assertInstanceOf(Picked.class, dispatcher.pick(s, at(2), f.now()));
        assertEquals("a1", p.proxy().id());
        p.reservation().release();
        PoolSnapshot onlyC = f.build(PoolFixture.proxy("c1").upstream("C").build());
        assertEquals(
                NoCandidate.Reason.NO_MATCH,
                assertInstanceOf(NoCandidate.class, dispatcher.pick(onlyC, at(1), f.now()))
                        .reason(),
                "C is later than the current upstream B: not eligible");
    }

    @Test
    void withoutUpstreamsInTheFilterTheWholePoolIsOneUpstream() {
        PoolSnapshot s = pool();
        List<Reservation> held = new ArrayList<>();
        assertEquals(
                5,
                drainOrder(s, PickRequest.of(CandidateFilter.ANY, Strategy.SEQUENTIAL), held)
                        .size());
        held.forEach(Reservation::release);
    }
}
