package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extracted;
import static dev.proxypool.core.extract.ProxyFixtures.extractedIds;
import static dev.proxypool.core.extract.ProxyFixtures.listAll;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static dev.proxypool.core.extract.ProxyFixtures.rich;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Extraction: fulfillment, the gateway reserve, TTL and health limits, disabled and expired proxies. */
public interface ExtractionContract extends StoreUnderTest {

    private List<Proxy> publishNumbered(PoolStore store, int from, int count, String upstream) {
        List<Proxy> ps = IntStream.range(from, from + count)
                .mapToObj(n -> builder(n).upstream(upstream).build())
                .toList();
        store.upsert(ps, now());
        return ps;
    }

    @Test
    default void partialReturnsTheRealCountPossiblyZero() {
        int[][] rows = {{0, 5, 0}, {3, 5, 3}, {5, 5, 5}, {10, 5, 5}, {10, 1, 1}};
        List<Executable> checks = new ArrayList<>();
        for (int[] row : rows) {
            PoolStore s = newStore(StoreSettings.DEFAULTS);
            publishNumbered(s, 0, row[0], ProxyFixtures.UPSTREAM);
            int got = extracted(s.extract(
                            ExtractionRequest.builder(row[1]).partial().build(), now()))
                    .size();
            checks.add(() -> assertEquals(row[2], got, "pool " + row[0] + ", partial " + row[1]));
            checks.add(() -> assertEquals(row[0] - row[2], totalAvailable(s), "left in pool " + row[0] + "/" + row[1]));
        }
        assertAll(checks);
    }

    @Test
    default void allOrNothingShortExtractsNothingAndLeavesThePoolUnchanged() {
        publishNumbered(store(), 0, 3, ProxyFixtures.UPSTREAM);
        store().markChecked(proxy(1).id(), now());
        List<StoredProxy> before = listAll(store());

        assertEquals(
                new ExtractionResult.Insufficient(3),
                extract(ExtractionRequest.builder(5).allOrNothing().build()));
        assertEquals(before, listAll(store()));
        assertEquals(false, store().isTombstoned(proxy(0).key(), now()));
        assertEquals(
                3,
                extracted(extract(ExtractionRequest.builder(5).partial().build()))
                        .size());
    }

    @Test
    default void allOrNothingTakesExactlyTheCount() {
        publishNumbered(store(), 0, 10, ProxyFixtures.UPSTREAM);
        assertEquals(
                4,
                extractedIds(extract(ExtractionRequest.builder(4).allOrNothing().build()))
                        .size());
        assertEquals(6, store().available(ProxyFixtures.UPSTREAM));
        assertEquals(
                6,
                extractedIds(extract(ExtractionRequest.builder(6).allOrNothing().build()))
                        .size());
        assertEquals(
                new ExtractionResult.Insufficient(0),
                extract(ExtractionRequest.builder(1).allOrNothing().build()));
    }

    @Test
    default void extractedProxiesLeaveThePoolWithTheirWholeRecord() {
        Proxy r = rich(1);
        publish(r);
        List<ExtractedProxy> out =
                extracted(extract(ExtractionRequest.builder(1).allOrNothing().build()));

        assertEquals(List.of(new ExtractedProxy(r, now())), out);
        assertEquals(Duration.ofMinutes(390), out.getFirst().remainingTtl());
        assertEquals(Optional.empty(), store().get(r.id()));
        assertEquals(0, store().available(r.upstream()));
        assertEquals(List.of(), extracted(extract(ExtractionRequest.builder(1).build())));
    }

    /** Issue 38.2: one proxy COOLING (held out by its worker) and one HEALTHY: only the healthy one is extractable. */
    @Test
    default void onlyHealthyProxiesAreExtracted() {
        publish(proxy(0), proxy(1));
        assertEquals(1, store().markUnhealthy(List.of(proxy(0).id(), "p-unknown"), now().plus(Duration.ofMinutes(1))));

        assertEquals(
                new ExtractionResult.Insufficient(1),
                extract(ExtractionRequest.builder(2).allOrNothing().build()));
        assertEquals(2, totalAvailable(store()), "a held proxy keeps its state and counts");
        assertEquals(
                Set.of(proxy(1).id()),
                extractedIds(extract(ExtractionRequest.builder(2).partial().build())));
        assertEquals(
                List.of(),
                extracted(extract(ExtractionRequest.builder(2).partial().build())));
        assertEquals(1, totalAvailable(store()));
    }

    @Test
    default void aHealthHoldEndsWhenMarkedHealthyOrAtItsEnd() {
        publish(proxy(0), proxy(1), proxy(2));
        store().markUnhealthy(List.of(proxy(0).id(), proxy(1).id()), now().plus(Duration.ofMinutes(1)));
        assertEquals(
                1, extractedIds(extract(ExtractionRequest.builder(3).build())).size());

        assertEquals(1, store().markHealthy(List.of(proxy(0).id())));
        assertEquals(
                Set.of(proxy(0).id()),
                extractedIds(extract(ExtractionRequest.builder(3).build())));

        clock().advance(Duration.ofMinutes(1)); // the owner stopped renewing: the hold lapses
        store().purgeExpired(now());
        assertEquals(
                Set.of(proxy(1).id()),
                extractedIds(extract(ExtractionRequest.builder(3).build())));
    }

    /**
     * A held proxy stays counted available, but not towards the gateway reserve: the reserve keeps
     * proxies the gateway can use, and it cannot use one a worker sees unhealthy.
     */
    @Test
    default void aHeldProxyDoesNotCountTowardsTheGatewayReserve() {
        publish(proxy(0), proxy(1), proxy(2));
        store().markUnhealthy(List.of(proxy(0).id()), now().plus(Duration.ofMinutes(1)));
        assertEquals(3, totalAvailable(store()));
        ExtractionRequest two =
                ExtractionRequest.builder(2).allOrNothing().gatewayReserve(1).build();
        assertEquals(new ExtractionResult.Insufficient(1), extract(two), "2 extractable, 1 kept for the gateway");
        assertEquals(
                1,
                extracted(extract(ExtractionRequest.builder(2)
                                .partial()
                                .gatewayReserve(1)
                                .build()))
                        .size());
        assertEquals(
                List.of(),
                extracted(extract(ExtractionRequest.builder(1).gatewayReserve(1).build())));
        store().markHealthy(List.of(proxy(0).id()));
        assertEquals(
                1,
                extracted(extract(ExtractionRequest.builder(1).gatewayReserve(1).build()))
                        .size(),
                "healthy again: it counts");
    }

    /** A hold survives a disable and an enable, and a disabled held proxy counts as disabled only. */
    @Test
    default void aHoldSurvivesDisableAndEnable() {
        publish(proxy(0), proxy(1));
        store().markUnhealthy(List.of(proxy(0).id()), now().plus(Duration.ofMinutes(10)));
        assertTrue(store().setDisabled(proxy(0).id(), true));
        assertEquals(1, totalAvailable(store()));
        assertTrue(store().setDisabled(proxy(0).id(), false));
        assertEquals(2, totalAvailable(store()));
        assertEquals(
                Set.of(proxy(1).id()),
                extractedIds(extract(ExtractionRequest.builder(2).build())));
        assertEquals(1, totalAvailable(store()), "the held one, still counted");
        clock().advance(Duration.ofMinutes(10)); // its end passed: the next extraction ends it
        assertEquals(
                Set.of(proxy(0).id()),
                extractedIds(extract(ExtractionRequest.builder(2).build())));
    }

    @Test
    default void aHeldProxyIsSkippedByFilteredExtractionsAndKeepsItsHoldWhenRepublished() {
        Proxy us = builder(0).labels(Labels.of("country", "US", "type", "dc")).build();
        Proxy us2 = builder(1).labels(Labels.of("country", "US", "type", "dc")).build();
        publish(us, us2);
        store().markUnhealthy(List.of(us.id()), now().plus(Duration.ofMinutes(10)));
        publish(us, us2); // refreshed by the next fetch round
        ExtractionRequest r = ExtractionRequest.builder(2)
                .filter(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "dc")
                        .build())
                .build();
        assertEquals(Set.of(us2.id()), extractedIds(extract(r)));
        assertEquals(List.of(), extracted(extract(r)));
        assertEquals(1, store().available(us.upstream()));
    }

    @Test
    default void minRemainingTtlKeepsShortLivedProxies() {
        Instant t = now();
        List<Proxy> ps = List.of(
                builder(0).expiresAt(t.plus(Duration.ofMinutes(10))).build(),
                builder(1).expiresAt(t.plus(Duration.ofHours(1))).build(),
                builder(2).build());
        Object[][] rows = {
            {Duration.ZERO, Set.of(0, 1, 2)},
            {Duration.ofMinutes(10), Set.of(0, 1, 2)},
            {Duration.ofMinutes(30), Set.of(1, 2)},
            {Duration.ofHours(1), Set.of(1, 2)},
            {Duration.ofHours(2), Set.of(2)}
        };
        List<Executable> checks = new ArrayList<>();
        for (Object[] row : rows) {
            PoolStore s = newStore(StoreSettings.DEFAULTS);
            s.upsert(ps, t);
            Duration min = (Duration) row[0];
            Set<String> got = extractedIds(s.extract(
                    ExtractionRequest.builder(100).minRemainingTtl(min).build(), t));
            checks.add(() -> assertEquals(idsOf(ps, row[1]), got, "minRemainingTtl " + min));
        }
        assertAll(checks);
    }

    @Test
    default void maxHealthAgeRequiresARecentCheck() {
        Instant t = now();
        List<Proxy> ps = IntStream.range(0, 4).mapToObj(ProxyFixtures::proxy).toList();
        Object[][] rows = {
            {Duration.ZERO, Set.of(0, 1, 2, 3)},
            {Duration.ofMinutes(5), Set.of(0, 3)},
            {Duration.ofMinutes(10), Set.of(0, 3)},
            {Duration.ofHours(1), Set.of(0, 1, 3)}
        };
        List<Executable> checks = new ArrayList<>();
        for (Object[] row : rows) {
            PoolStore s = newStore(StoreSettings.DEFAULTS);
            s.upsert(ps, t);
            s.markChecked(ps.get(0).id(), t.minus(Duration.ofMinutes(5)));
            s.markChecked(ps.get(1).id(), t.minus(Duration.ofHours(1)));
            // ps[2] never checked
            s.markChecked(ps.get(3).id(), t);
            Duration max = (Duration) row[0];
            Set<String> got = extractedIds(
                    s.extract(ExtractionRequest.builder(100).maxHealthAge(max).build(), t));
            checks.add(() -> assertEquals(idsOf(ps, row[1]), got, "maxHealthAge " + max));
        }
        assertAll(checks);
    }

    @Test
    default void disabledProxiesAreNotExtractedUntilEnabled() {
        publish(proxy(1), proxy(2));
        store().setDisabled(proxy(1).id(), true);
        assertEquals(
                new ExtractionResult.Insufficient(1),
                extract(ExtractionRequest.builder(2).allOrNothing().build()));
        assertEquals(
                Set.of(proxy(2).id()),
                extractedIds(extract(ExtractionRequest.builder(2).build())));

        store().setDisabled(proxy(1).id(), false);
        assertEquals(
                Set.of(proxy(1).id()),
                extractedIds(extract(ExtractionRequest.builder(2).build())));
    }

    @Test
    default void expiredProxiesAreNeverExtracted() {
        Proxy shortLived =
                builder(1).expiresAt(now().plus(Duration.ofMinutes(10))).build();
        publish(shortLived, proxy(2));
        clock().advance(Duration.ofMinutes(10));

        assertEquals(
                new ExtractionResult.Insufficient(1),
                extract(ExtractionRequest.builder(2).allOrNothing().build()));
        assertEquals(
                Set.of(proxy(2).id()),
                extractedIds(extract(ExtractionRequest.builder(2).build())));
        assertEquals(false, store().isTombstoned(shortLived.key(), now().minusSeconds(1)));
    }

    @Test
    default void gatewayReserveCapsPartial() {
        publishNumbered(store(), 0, 10, ProxyFixtures.UPSTREAM);
        ExtractionRequest req =
                ExtractionRequest.builder(5).partial().gatewayReserve(7).build();
        assertEquals(3, extractedIds(extract(req)).size());
        assertEquals(0, extractedIds(extract(req)).size());
        assertEquals(7, totalAvailable(store()));
    }

    @Test
    default void gatewayReserveFailsAllOrNothingWithoutTouchingThePool() {
        publishNumbered(store(), 0, 10, ProxyFixtures.UPSTREAM);
        List<StoredProxy> before = listAll(store());
        assertEquals(
                new ExtractionResult.Insufficient(3),
                extract(ExtractionRequest.builder(4)
                        .allOrNothing()
                        .gatewayReserve(7)
                        .build()));
        assertEquals(before, listAll(store()));
        assertEquals(
                3,
                extractedIds(extract(ExtractionRequest.builder(3)
                                .allOrNothing()
                                .gatewayReserve(7)
                                .build()))
                        .size());
        assertEquals(
                new ExtractionResult.Insufficient(0),
                extract(ExtractionRequest.builder(1)
                        .allOrNothing()
                        .gatewayReserve(7)
                        .build()));
        assertEquals(7, totalAvailable(store()));
    }

    @Test
    default void gatewayReserveCountsTheWholePoolNotTheFilteredPart() {
        publishNumbered(store(), 0, 5, "up-a");
        publishNumbered(store(), 5, 5, "up-b");
        ExtractionFilter upA = ExtractionFilter.builder().upstream("up-a").build();
        assertEquals(
                4,
                extractedIds(extract(ExtractionRequest.builder(5)
                                .filter(upA)
                                .gatewayReserve(6)
                                .build()))
                        .size());
        assertEquals(new UpstreamCounts(1, 0), store().countsByUpstream().get("up-a"));
        assertEquals(new UpstreamCounts(5, 0), store().countsByUpstream().get("up-b"));
    }

    @Test
    default void gatewayReserveTotalLeavesOutDisabledAndExpiredProxies() {
        publishNumbered(store(), 0, 6, ProxyFixtures.UPSTREAM);
        store().setDisabled(proxy(0).id(), true);
        store().setDisabled(proxy(1).id(), true);
        publish(
                builder(6).expiresAt(now().plus(Duration.ofMinutes(5))).build(),
                builder(7).expiresAt(now().plus(Duration.ofMinutes(5))).build());
        clock().advance(Duration.ofMinutes(5));
        // 4 available and unexpired, reserve 2: at most 2
        assertEquals(
                new ExtractionResult.Insufficient(2),
                extract(ExtractionRequest.builder(3)
                        .allOrNothing()
                        .gatewayReserve(2)
                        .build()));
        assertEquals(
                2,
                extractedIds(extract(
                                ExtractionRequest.builder(10).gatewayReserve(2).build()))
                        .size());
    }

    @Test
    default void gatewayReserveHoldsForSingleExtractionsWhileExpiredProxiesAwaitThePurge() {
        // 10 stored, 4 of them expired and not purged yet: 6 count toward the reserve of 5, so
        // exactly one count=1 extraction passes, filtered or not, and never an expired proxy
        Set<String> fresh = publishNumbered(store(), 0, 6, ProxyFixtures.UPSTREAM).stream()
                .map(Proxy::id)
                .collect(Collectors.toSet());
        for (int n = 6; n < 10; n++) {
            publish(builder(n).expiresAt(now().plus(Duration.ofMinutes(5))).build());
        }
        clock().advance(Duration.ofMinutes(5));
        ExtractionRequest one = ExtractionRequest.builder(1).gatewayReserve(5).build();
        Set<String> first = extractedIds(extract(one));
        assertEquals(1, first.size());
        assertTrue(fresh.containsAll(first), "not an expired one: " + first);
        assertEquals(Set.of(), extractedIds(extract(one)), "the reserve of 5 is reached");
        assertEquals(
                new ExtractionResult.Insufficient(0),
                extract(ExtractionRequest.builder(1)
                        .allOrNothing()
                        .gatewayReserve(5)
                        .build()));
        assertEquals(
                Set.of(),
                extractedIds(extract(ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder()
                                .upstream(ProxyFixtures.UPSTREAM)
                                .build())
                        .gatewayReserve(5)
                        .build())));
        assertEquals(
                1,
                extractedIds(extract(
                                ExtractionRequest.builder(1).gatewayReserve(4).build()))
                        .size(),
                "one more above a reserve of 4");
    }

    @Test
    default void insufficientReportsWhatPartialWouldHaveTaken() {
        publishNumbered(store(), 0, 20, ProxyFixtures.UPSTREAM);
        publish(
                builder(20).labels(Labels.of("country", "US")).build(),
                builder(21).labels(Labels.of("country", "US")).build(),
                builder(22).labels(Labels.of("country", "US")).build());
        ExtractionFilter us = ExtractionFilter.builder().country("US").build();
        assertEquals(
                new ExtractionResult.Insufficient(3),
                extract(ExtractionRequest.builder(5)
                        .allOrNothing()
                        .filter(us)
                        .gatewayReserve(1)
                        .build()));
        assertEquals(
                new ExtractionResult.Insufficient(2),
                extract(ExtractionRequest.builder(5)
                        .allOrNothing()
                        .filter(us)
                        .gatewayReserve(21)
                        .build()));
        assertEquals(23, totalAvailable(store()));
    }

    private static Set<String> idsOf(List<Proxy> ps, Object indices) {
        TreeSet<String> ids = new TreeSet<>();
        for (Object i : (Set<?>) indices) {
            ids.add(ps.get((Integer) i).id());
        }
        return ids;
    }
}
