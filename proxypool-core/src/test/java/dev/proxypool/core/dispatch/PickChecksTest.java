package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The per-candidate rules, checked for every strategy. */
class PickChecksTest {

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();

    private static PickRequest request(CandidateFilter filter, Strategy strategy) {
        return new PickRequest(filter, strategy, "shop.example", "", List.of(), 0);
    }

    /**
     * Ids of every proxy the strategy can get now: picks and holds until the pool is drained (so the
     * deterministic strategies, which keep choosing the same proxy, are forced through the fallback
     * scan too), then releases everything. {@code picks} bounds the drain.
     */
    private Set<String> picked(PoolSnapshot s, PickRequest r, int picks) {
        Set<String> ids = new HashSet<>();
        List<Reservation> held = new java.util.ArrayList<>();
        for (int i = 0; i < picks; i++) {
            PickResult result = dispatcher.pick(s, r, f.now());
            if (!(result instanceof Picked p)) {
                break;
            }
            ids.add(p.proxy().id());
            held.add(p.reservation());
        }
        assertTrue(held.size() < picks, "the pool should drain within " + picks + " picks");
        held.forEach(Reservation::release);
        return ids;
    }

    private NoCandidate.Reason failure(PoolSnapshot s, PickRequest r) {
        return assertInstanceOf(NoCandidate.class, dispatcher.pick(s, r, f.now()))
                .reason();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void ttlExcludesProxiesAsTheClockAdvances(Strategy strategy) {
        Instant now = f.clock.instant();
        PoolSnapshot s = f.build(
                PoolFixture.proxy("1min").expiresAt(now.plusSeconds(60)).build(),
                PoolFixture.proxy("5min").expiresAt(now.plusSeconds(300)).build(),
                PoolFixture.proxy("never").build());
        PickRequest r = request(CandidateFilter.ANY.withMinRemainingTtl(Duration.ofSeconds(30)), strategy);
        assertEquals(Set.of("1min", "5min", "never"), picked(s, r, 200));
        f.clock.advance(Duration.ofSeconds(31)); // 29 s left < 30 s
        assertEquals(Set.of("5min", "never"), picked(s, r, 200));
        f.clock.advance(Duration.ofSeconds(240)); // 29 s left
        assertEquals(Set.of("never"), picked(s, r, 200));
        PickRequest anyTtl = request(CandidateFilter.ANY, strategy);
        assertEquals(Set.of("5min", "never"), picked(s, anyTtl, 200), "zero minimum still needs an unexpired proxy");
        f.clock.advance(Duration.ofSeconds(29));
        assertEquals(Set.of("never"), picked(s, anyTtl, 200), "expired exactly at expiresAt");
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void allExpiringIsReportedAsExpiring(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxy("soon")
                .expiresAt(f.clock.instant().plusSeconds(10))
                .build());
        assertEquals(
                NoCandidate.Reason.EXPIRING,
                failure(s, request(CandidateFilter.ANY.withMinRemainingTtl(Duration.ofSeconds(30)), strategy)));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void fullProxiesAreSkippedAndAllFullIsBusy(Strategy strategy) {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("a").maxConcurrency(1).build(),
                PoolFixture.proxy("b").maxConcurrency(2).build());
        PickRequest r = request(CandidateFilter.ANY, strategy);
        Picked first = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
        Picked second = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
        Picked third = assertInstanceOf(Picked.class, dispatcher.pick(s, r, f.now()));
        assertEquals(NoCandidate.Reason.BUSY, failure(s, r));
        for (String id : List.of("a", "b")) {
            assertEquals(
                    s.runtime(s.slotOf(id)).capacity().limit(),
                    s.runtime(s.slotOf(id)).capacity().inFlight());
        }
        first.reservation().release();
        second.reservation().release();
        third.reservation().release();
        assertEquals(Set.of("a", "b"), picked(s, r, 200));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void excludedProxiesAreNotPicked(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 5));
        PickRequest r = request(CandidateFilter.ANY, strategy).excluding("p1").excluding("p3");
        assertEquals(Set.of("p0", "p2", "p4"), picked(s, r, 300));
        PickRequest all = r.withExcluded(List.of("p0", "p1", "p2", "p3", "p4"));
        assertEquals(NoCandidate.Reason.EXCLUDED, failure(s, all));
    }

    /**
     * The dispatcher skips exactly the proxies {@link ProxyHealth#isBannedFor} reports banned for the
     * request's domain, and only for that domain.
     */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void proxiesBannedForTheDomainAreSkipped(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        ProxyHealth banned = s.runtime(s.slotOf("p1")).health();
        banned.banDomain("shop.example", f.now());
        PickRequest forShop = request(CandidateFilter.ANY, strategy).withDomain("shop.example");
        Set<String> expected =
                banned.isBannedFor("shop.example", f.now()) ? Set.of("p0", "p2") : Set.of("p0", "p1", "p2");
        assertEquals(expected, picked(s, forShop, 300));
        assertEquals(Set.of("p0", "p1", "p2"), picked(s, forShop.withDomain("other.example"), 300));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void disabledProxiesAreSkippedAndAllDisabledIsUnhealthy(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        s.runtime(s.slotOf("p0")).health().disable("test", f.now());
        PickRequest r = request(CandidateFilter.ANY, strategy);
        assertEquals(Set.of("p1", "p2"), picked(s, r, 300));
        s.runtime(s.slotOf("p1")).health().disable("test", f.now());
        s.runtime(s.slotOf("p2")).health().disable("test", f.now());
        assertEquals(NoCandidate.Reason.UNHEALTHY, failure(s, r));
        for (int slot = 0; slot < 3; slot++) {
            assertEquals(0, s.runtime(slot).capacity().inFlight(), "a denied admission leaves no reservation");
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void staleHealthVerdictsAreSkippedWhenAMaximumAgeIsSet(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 2));
        f.clock.advance(Duration.ofMinutes(5));
        s.runtime(s.slotOf("p1")).health().recordSuccess(Admission.ADMITTED, 1_000_000, f.now());
        f.clock.advance(Duration.ofSeconds(30));
        PickRequest fresh = request(CandidateFilter.ANY.withMaxHealthAge(Duration.ofMinutes(1)), strategy);
        assertEquals(Set.of("p1"), picked(s, fresh, 200));
        assertEquals(Set.of("p0", "p1"), picked(s, request(CandidateFilter.ANY, strategy), 300));
        f.clock.advance(Duration.ofMinutes(1));
        assertEquals(NoCandidate.Reason.STALE_HEALTH, failure(s, fresh));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void noMatchingProxyIsNoMatch(Strategy strategy) {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        NoCandidate.Reason reason =
                failure(s, request(CandidateFilter.ANY.withLabels(LabelSelector.parse("country=ZZ")), strategy));
        assertEquals(NoCandidate.Reason.NO_MATCH, reason);
        assertEquals(
                NoCandidate.Reason.NO_MATCH,
                failure(PoolSnapshot.empty(f.clock.instant(), f.now()), request(CandidateFilter.ANY, strategy)));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void busyOutranksOtherReasons(Strategy strategy) {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("full").maxConcurrency(1).build(),
                PoolFixture.proxy("off").build(),
                PoolFixture.proxy("old")
                        .expiresAt(f.clock.instant().plusSeconds(1))
                        .build());
        Reservation hold = s.runtime(s.slotOf("full")).capacity().tryReserve();
        s.runtime(s.slotOf("off")).health().disable("test", f.now());
        assertEquals(
                NoCandidate.Reason.BUSY,
                failure(s, request(CandidateFilter.ANY.withMinRemainingTtl(Duration.ofSeconds(5)), strategy)));
        hold.release();
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void pickSlotReservesExactlyThatProxyOrSaysWhyNot(Strategy strategy) {
        PoolSnapshot s = f.build(
                PoolFixture.proxy("us")
                        .labels(dev.proxypool.core.model.Labels.of("country", "US"))
                        .maxConcurrency(1)
                        .build(),
                PoolFixture.proxy("de")
                        .labels(dev.proxypool.core.model.Labels.of("country", "DE"))
                        .build());
        PickRequest us = request(CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US")), strategy);
        Picked p = assertInstanceOf(Picked.class, dispatcher.pickSlot(s, us, s.slotOf("us"), f.now()));
        assertEquals("us", p.proxy().id());
        assertEquals(Admission.ADMITTED, p.admission());
        assertEquals(
                NoCandidate.Reason.BUSY,
                assertInstanceOf(NoCandidate.class, dispatcher.pickSlot(s, us, s.slotOf("us"), f.now()))
                        .reason());
        assertEquals(
                NoCandidate.Reason.NO_MATCH,
                assertInstanceOf(NoCandidate.class, dispatcher.pickSlot(s, us, s.slotOf("de"), f.now()))
                        .reason());
        p.reservation().release();
    }

    @org.junit.jupiter.api.Test
    void consistentHashNeedsAKeyAndSequentialAnIndexInsideTheUpstreams() {
        IllegalArgumentException noKey = assertThrows(
                IllegalArgumentException.class, () -> PickRequest.of(CandidateFilter.ANY, Strategy.CONSISTENT_HASH));
        assertTrue(noKey.getMessage().contains("hashKey"), noKey.getMessage());
        IllegalArgumentException badIndex = assertThrows(
                IllegalArgumentException.class,
                () -> PickRequest.of(CandidateFilter.ANY.withUpstreams(List.of("a", "b")), Strategy.SEQUENTIAL)
                        .withUpstreamIndex(2));
        assertTrue(badIndex.getMessage().contains("upstreamIndex 2"), badIndex.getMessage());
        assertNotEquals(null, PickRequest.of(CandidateFilter.ANY, Strategy.SEQUENTIAL));
    }
}
