package dev.proxypool.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PoolSnapshotTest {

    private final PoolFixture f = new PoolFixture();

    @Test
    void candidateSetsEqualABruteForceScanOnRandomPools() {
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            PoolSnapshot s = f.build(f.randomPool(random, 300 + random.nextInt(700)));
            for (int q = 0; q < 30; q++) {
                CandidateFilter filter = randomFilter(random);
                int[] expected = bruteForce(s, filter);
                assertArrayEquals(
                        expected,
                        f.build(s.proxies()).candidates(filter).toSlotArray(),
                        "fresh snapshot, filter " + filter);
                assertArrayEquals(expected, s.candidates(filter).toSlotArray(), "filter " + filter);
            }
        }
    }

    /** Random filter: 0-3 upstreams, 0-2 protocols, 0/2/6 labels (values that exist and some that do not). */
    static CandidateFilter randomFilter(Random random) {
        List<String> upstreams = new ArrayList<>();
        int nu = random.nextInt(4);
        List<String> pool = new ArrayList<>(PoolFixture.UPSTREAMS);
        pool.add("up-missing");
        java.util.Collections.shuffle(pool, random);
        upstreams.addAll(pool.subList(0, nu));
        Set<Protocol> protocols = EnumSet.noneOf(Protocol.class);
        int np = random.nextInt(3);
        for (int i = 0; i < np; i++) {
            protocols.add(Protocol.values()[random.nextInt(Protocol.values().length)]);
        }
        Map<String, String> labels = new TreeMap<>();
        int nl = new int[] {0, 2, 6}[random.nextInt(3)];
        if (nl >= 2) {
            labels.put("country", random.nextInt(8) == 0 ? "XX" : PoolFixture.COUNTRIES.get(random.nextInt(5)));
            labels.put("type", PoolFixture.TYPES.get(random.nextInt(3)));
        }
        if (nl == 6) {
            labels.put("tier", "standard");
            labels.put("ipv", "4");
            labels.put("rotation", random.nextBoolean() ? "sticky" : "rotating");
            labels.put("level", "elite");
        }
        return new CandidateFilter(
                upstreams, protocols, LabelSelector.of(labels), Duration.ofSeconds(random.nextInt(120)), Duration.ZERO);
    }

    /** The candidates by definition: upstream segments in filter order, slots ascending within. */
    static int[] bruteForce(PoolSnapshot s, CandidateFilter filter) {
        List<Integer> out = new ArrayList<>();
        List<String> segments =
                filter.upstreams().isEmpty() ? java.util.Collections.singletonList(null) : filter.upstreams();
        for (String upstream : segments) {
            for (int slot = 0; slot < s.size(); slot++) {
                Proxy p = s.proxy(slot);
                if ((upstream == null || p.upstream().equals(upstream))
                        && (filter.protocols().isEmpty() || filter.protocols().contains(p.protocol()))
                        && filter.labels().matches(p.labels())) {
                    out.add(slot);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void segmentsFollowTheFilterUpstreamOrder() {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("a1").upstream("A").build(),
                PoolFixture.proxy("b1").upstream("B").build(),
                PoolFixture.proxy("a2").upstream("A").build(),
                PoolFixture.proxy("c1").upstream("C").build());
        CandidateSet set = s.candidates(CandidateFilter.ANY.withUpstreams(List.of("C", "A", "Z")));
        assertEquals(3, set.segmentCount());
        assertEquals(List.of("c1", "a1", "a2"), ids(s, set));
        assertEquals(0, set.segmentStart(0));
        assertEquals(1, set.segmentEnd(0));
        assertEquals(3, set.segmentEnd(1));
        assertEquals(3, set.segmentStart(2));
        assertEquals(3, set.segmentEnd(2));
        assertTrue(set.contains(s.slotOf("a2")));
        assertFalse(set.contains(s.slotOf("b1")));
    }

    private static List<String> ids(PoolSnapshot s, CandidateSet set) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < set.size(); i++) {
            out.add(s.proxy(set.slotAt(i)).id());
        }
        return out;
    }

    @Test
    void candidateSetsAreMemoizedPerDistinctFilter() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 10));
        CandidateFilter a = CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US"));
        CandidateFilter equalToA = CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US"));
        assertSame(s.candidates(a), s.candidates(a));
        assertSame(s.candidates(a), s.candidates(equalToA));
        assertEquals(1, s.memoizedFilters());
    }

    @Test
    void theMemoIsBoundedAndUncachedFiltersStayCorrect() {
        PoolSnapshot s = f.build(f.randomPool(new Random(1), 50));
        int distinct = PoolSnapshot.MAX_MEMOIZED_FILTERS + 500;
        for (int i = 0; i < distinct; i++) {
            s.candidates(CandidateFilter.ANY.withMinRemainingTtl(Duration.ofMillis(i)));
        }
        assertEquals(PoolSnapshot.MAX_MEMOIZED_FILTERS, s.memoizedFilters());
        CandidateFilter late = CandidateFilter.ANY
                .withMinRemainingTtl(Duration.ofMillis(distinct - 1))
                .withProtocols(Set.of(Protocol.SOCKS5));
        assertArrayEquals(bruteForce(s, late), s.candidates(late).toSlotArray());
    }

    @Test
    void deadlinesComeFromExpiresAtOnTheTickerScale() {
        Instant now = f.clock.instant();
        PoolSnapshot s = f.build(
                PoolFixture.proxy("in60s").expiresAt(now.plusSeconds(60)).build(),
                PoolFixture.proxy("never").build(),
                PoolFixture.proxy("gone").expiresAt(now.minusSeconds(5)).build(),
                PoolFixture.proxy("far")
                        .expiresAt(Instant.parse("+1000000-01-01T00:00:00Z"))
                        .build());
        assertEquals(f.now() + 60_000_000_000L, s.deadlineNanos(s.slotOf("in60s")));
        assertEquals(PoolSnapshot.NO_DEADLINE, s.deadlineNanos(s.slotOf("never")));
        assertEquals(-5_000_000_000L, s.remainingNanos(s.slotOf("gone"), f.now()));
        assertEquals(PoolSnapshot.NO_DEADLINE, s.deadlineNanos(s.slotOf("far")));
        f.clock.advance(Duration.ofSeconds(45));
        assertEquals(15_000_000_000L, s.remainingNanos(s.slotOf("in60s"), f.now()));
    }

    @Test
    void versionsStrictlyIncrease() {
        PoolSnapshot v1 = f.build(PoolFixture.proxies("p", 2));
        PoolSnapshot v2 = f.build(PoolFixture.proxies("p", 2));
        assertEquals(1, v1.version());
        assertEquals(2, v2.version());
        PoolSnapshot v10 = f.builder.build(10, PoolFixture.proxies("p", 2));
        assertEquals(10, v10.version());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> f.builder.build(10, PoolFixture.proxies("p", 2)));
        assertTrue(e.getMessage().contains("10"), e.getMessage());
        assertEquals(11, f.build(PoolFixture.proxies("p", 2)).version());
    }

    @Test
    void liveSnapshotRefusesOlderOrEqualVersions() {
        LiveSnapshot live = new LiveSnapshot(PoolSnapshot.empty(f.clock.instant(), f.now()));
        PoolSnapshot v1 = f.build(PoolFixture.proxies("p", 1));
        PoolSnapshot v2 = f.build(PoolFixture.proxies("p", 2));
        assertTrue(live.publish(v2));
        assertFalse(live.publish(v1));
        assertFalse(live.publish(v2));
        assertSame(v2, live.current());
    }

    @Test
    void aDuplicateProxyIdIsRefusedNamingTheId() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> f.build(
                        PoolFixture.proxy("dup").build(),
                        Proxy.builder(new ProxyKey(Protocol.SOCKS5, "10.9.9.9", 1080, CredentialRef.NONE))
                                .id("dup")
                                .build()));
        assertTrue(e.getMessage().contains("dup"), e.getMessage());
    }

    @Test
    void runtimesSurviveRebuilds() {
        PoolSnapshot v1 = f.build(PoolFixture.proxies("p", 3));
        PoolSnapshot v2 = f.build(PoolFixture.proxies("p", 5));
        for (int i = 0; i < 3; i++) {
            assertSame(v1.runtime(v1.slotOf("p" + i)), v2.runtime(v2.slotOf("p" + i)));
        }
        assertEquals(-1, v1.slotOf("p4"));
    }

    @Test
    void labelsIndexEveryKeyValue() {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("x")
                        .labels(Labels.of("country", "US", "type", "mobile"))
                        .build(),
                PoolFixture.proxy("y").labels(Labels.of("country", "US")).build());
        assertEquals(
                2,
                s.candidates(CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US")))
                        .size());
        assertEquals(
                1,
                s.candidates(CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US,type=mobile")))
                        .size());
        assertEquals(
                0,
                s.candidates(CandidateFilter.ANY.withLabels(LabelSelector.parse("type=datacenter")))
                        .size());
        assertEquals(
                0,
                s.candidates(CandidateFilter.ANY.withLabels(LabelSelector.parse("city=Paris")))
                        .size());
    }
}
