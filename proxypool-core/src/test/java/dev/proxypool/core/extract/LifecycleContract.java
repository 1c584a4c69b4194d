package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extractedIds;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tombstones, purge, remove, health checks, disabling and closing. */
public interface LifecycleContract extends StoreUnderTest {

    @Test
    default void extractedProxyIsNotRepublishedUntilItsExpiry() {
        Instant t0 = now();
        Proxy p = builder(1).expiresAt(t0.plus(Duration.ofHours(1))).build();
        publish(p);
        assertEquals(
                Set.of(p.id()),
                extractedIds(extract(ExtractionRequest.builder(1).build())));
        Proxy listedAgain =
                p.toBuilder().expiresAt(t0.plus(Duration.ofHours(3))).build();

        assertTrue(store().isTombstoned(p.key(), now()));
        assertEquals(new PublishResult(0, 0, 1, 0, 0), publish(listedAgain));
        assertEquals(Optional.empty(), store().get(p.id()));

        clock().advance(Duration.ofMinutes(59).plusSeconds(59));
        assertEquals(new PublishResult(0, 0, 1, 0, 0), publish(listedAgain));
        clock().advance(Duration.ofSeconds(1)); // the original expiry: the tombstone ends
        assertFalse(store().isTombstoned(p.key(), now()));
        assertEquals(new PublishResult(1, 0, 0, 0, 0), publish(listedAgain));
        assertEquals(
                Set.of(p.id()),
                extractedIds(extract(ExtractionRequest.builder(1).build())));
    }

    @Test
    default void tombstoneCoversTheSameProxyFromAnotherUpstream() {
        Proxy p = builder(1).expiresAt(now().plus(Duration.ofHours(1))).build();
        publish(p);
        extractedIds(extract(ExtractionRequest.builder(1).build()));
        Proxy viaB = builder(1)
                .upstream("up-b")
                .expiresAt(now().plus(Duration.ofHours(2)))
                .build();
        assertEquals(new PublishResult(0, 0, 1, 0, 0), publish(viaB));
        assertEquals(0, store().available("up-b"));
    }

    @Test
    default void proxyWithoutExpiryStaysTombstonedForTheConfiguredRetention() {
        PoolStore s = newStore(StoreSettings.builder()
                .tombstoneRetentionForNoExpiry(Duration.ofDays(2))
                .build());
        Instant t0 = now();
        Proxy p = proxy(1);
        s.upsert(List.of(p), t0);
        assertEquals(
                Set.of(p.id()),
                extractedIds(s.extract(ExtractionRequest.builder(1).build(), t0)));

        Instant justBefore = t0.plus(Duration.ofDays(2)).minusSeconds(1);
        assertTrue(s.isTombstoned(p.key(), justBefore));
        assertEquals(new PublishResult(0, 0, 1, 0, 0), s.upsert(List.of(p), justBefore));
        Instant end = t0.plus(Duration.ofDays(2));
        assertFalse(s.isTombstoned(p.key(), end));
        assertEquals(new PublishResult(1, 0, 0, 0, 0), s.upsert(List.of(p), end));
    }

    @Test
    default void defaultRetentionForProxiesWithoutExpiryIsSevenDays() {
        Proxy p = proxy(1);
        publish(p);
        extractedIds(extract(ExtractionRequest.builder(1).build()));
        assertTrue(store().isTombstoned(p.key(), now().plus(Duration.ofDays(7)).minusSeconds(1)));
        assertFalse(store().isTombstoned(p.key(), now().plus(Duration.ofDays(7))));
    }

    @Test
    default void keysNeverExtractedAreNotTombstoned() {
        publish(proxy(1));
        assertFalse(store().isTombstoned(proxy(1).key(), now()));
        assertFalse(store().isTombstoned(proxy(2).key(), now()));
        store().remove(List.of(proxy(1).id()));
        assertFalse(store().isTombstoned(proxy(1).key(), now()));
    }

    @Test
    default void purgeDropsExpiredProxiesOfEveryState() {
        Instant t0 = now();
        Proxy soon = builder(1).expiresAt(t0.plus(Duration.ofMinutes(10))).build();
        Proxy soonDisabled =
                builder(2).expiresAt(t0.plus(Duration.ofMinutes(10))).build();
        Proxy later = builder(3).expiresAt(t0.plus(Duration.ofHours(1))).build();
        Proxy never = proxy(4);
        publish(soon, soonDisabled, later, never);
        store().setDisabled(soonDisabled.id(), true);

        assertEquals(0, store().purgeExpired(t0.plus(Duration.ofMinutes(10)).minusSeconds(1)));
        assertEquals(2, store().purgeExpired(t0.plus(Duration.ofMinutes(10))));
        assertEquals(Optional.empty(), store().get(soon.id()));
        assertEquals(Optional.empty(), store().get(soonDisabled.id()));
        assertEquals(Map.of(ProxyFixtures.UPSTREAM, new UpstreamCounts(2, 0)), store().countsByUpstream());
        assertEquals(0, store().purgeExpired(t0.plus(Duration.ofMinutes(30))));
        assertEquals(1, store().purgeExpired(t0.plus(Duration.ofDays(365))));
        assertEquals(Map.of(ProxyFixtures.UPSTREAM, new UpstreamCounts(1, 0)), store().countsByUpstream());
    }

    @Test
    default void purgeKeepsTombstonesInForce() {
        Proxy p = builder(1).expiresAt(now().plus(Duration.ofHours(1))).build();
        publish(p);
        extractedIds(extract(ExtractionRequest.builder(1).build()));
        store().purgeExpired(now().plus(Duration.ofMinutes(30)));
        assertTrue(store().isTombstoned(p.key(), now().plus(Duration.ofMinutes(30))));
        store().purgeExpired(now().plus(Duration.ofHours(1)));
        assertFalse(store().isTombstoned(p.key(), now().plus(Duration.ofHours(1))));
    }

    @Test
    default void removeDropsProxiesWithoutTombstoning() {
        publish(proxy(1), proxy(2));
        store().setDisabled(proxy(2).id(), true);
        assertEquals(2, store().remove(List.of(proxy(1).id(), proxy(2).id(), "p-unknown")));
        assertEquals(Map.of(), store().countsByUpstream());
        assertEquals(new PublishResult(1, 0, 0, 0, 0), publish(proxy(1)));
        assertEquals(0, store().remove(List.of()));
    }

    @Test
    default void markCheckedKeepsTheNewestCheck() {
        publish(proxy(1), proxy(2));
        Instant t1 = now();
        assertTrue(store().markChecked(proxy(1).id(), t1));
        assertTrue(store().markChecked(proxy(1).id(), t1.minusSeconds(30)));
        assertEquals(Optional.of(t1), store().get(proxy(1).id()).orElseThrow().checkedAt());
        assertFalse(store().markChecked("p-unknown", t1));
        assertEquals(2, store().markChecked(List.of(proxy(1).id(), proxy(2).id(), "p-unknown"), t1.plusSeconds(5)));
        assertEquals(
                Optional.of(t1.plusSeconds(5)),
                store().get(proxy(2).id()).orElseThrow().checkedAt());
    }

    @Test
    default void disablingMovesAProxyBetweenStates() {
        publish(proxy(1), proxy(2));
        assertTrue(store().setDisabled(proxy(1).id(), true));
        assertTrue(store().setDisabled(proxy(1).id(), true));
        assertEquals(Map.of(ProxyFixtures.UPSTREAM, new UpstreamCounts(1, 1)), store().countsByUpstream());
        assertEquals(
                ProxyState.DISABLED, store().get(proxy(1).id()).orElseThrow().state());
        assertTrue(store().setDisabled(proxy(1).id(), false));
        assertEquals(Map.of(ProxyFixtures.UPSTREAM, new UpstreamCounts(2, 0)), store().countsByUpstream());
        assertFalse(store().setDisabled("p-unknown", true));
    }

    @Test
    default void closedStoreRefusesCalls() {
        PoolStore s = newStore(StoreSettings.DEFAULTS);
        s.upsert(List.of(proxy(1)), now());
        s.close();
        assertThrows(
                IllegalStateException.class,
                () -> s.extract(ExtractionRequest.builder(1).build(), now()));
        assertThrows(IllegalStateException.class, () -> s.upsert(List.of(proxy(2)), now()));
        assertThrows(IllegalStateException.class, () -> s.get(proxy(1).id()));
        assertThrows(
                IllegalStateException.class, () -> s.beginIdempotent(new IdempotencyKey("alice", "k"), "f", now()));
    }
}
