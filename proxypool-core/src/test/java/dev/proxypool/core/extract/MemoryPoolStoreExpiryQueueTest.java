package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.UPSTREAM;
import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extracted;
import static dev.proxypool.core.extract.ProxyFixtures.listAll;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded store's expiry queue, cleaned lazily: a proxy that leaves before it expires stays in
 * the queue, dead, until its expiry, and the purge then drops it without counting it; a live proxy is
 * queued once, under its current expiry.
 */
class MemoryPoolStoreExpiryQueueTest {

    private final Instant now = new ManualClock().instant();
    private final MemoryPoolStore store = new MemoryPoolStore();

    private Proxy expiring(int n, Duration in) {
        return builder(n).expiresAt(now.plus(in)).build();
    }

    /** The ids the store lists (in id order). */
    private List<String> listedIds() {
        List<String> ids = new ArrayList<>();
        listAll(store).forEach(p -> ids.add(p.proxy().id()));
        return ids;
    }

    private static List<String> sortedIds(Proxy... proxies) {
        return Arrays.stream(proxies).map(Proxy::id).sorted().toList();
    }

    @Test
    void aProxyThatLeavesBeforeItsExpiryStaysQueuedDeadUntilThenAndIsNotCountedAsPurged() {
        Duration ttl = Duration.ofSeconds(60);
        List<Proxy> pool = new ArrayList<>();
        for (int n = 1; n <= 6; n++) {
            pool.add(expiring(n, ttl));
        }
        pool.add(proxy(7)); // no expiry: never queued
        pool.add(proxy(8));
        store.upsert(pool, now);
        assertEquals(6, store.expiryQueueSize(), "only the proxies that expire are queued");

        List<Proxy> taken = extracted(store.extract(ExtractionRequest.builder(3).build(), now)).stream()
                .map(ExtractedProxy::proxy)
                .toList();
        assertEquals(List.of(pool.get(0), pool.get(1), pool.get(2)), taken, "publish order");
        assertEquals(1, store.remove(List.of(pool.get(3).id())));
        assertEquals(6, store.expiryQueueSize(), "the three extracted and the removed one stay queued, dead");
        assertEquals(4, store.available(UPSTREAM));
        assertTrue(store.get(pool.get(0).id()).isEmpty());
        assertEquals(sortedIds(pool.get(4), pool.get(5), pool.get(6), pool.get(7)), listedIds());

        assertEquals(0, store.purgeExpired(now.plus(ttl).minusMillis(1)));
        assertEquals(6, store.expiryQueueSize());
        assertEquals(2, store.purgeExpired(now.plus(ttl)), "the two live ones expired; the dead ones are not counted");
        assertEquals(0, store.expiryQueueSize(), "the dead entries left at their expiry");
        assertEquals(2, store.available(UPSTREAM));
        assertEquals(sortedIds(pool.get(6), pool.get(7)), listedIds());
        assertEquals(
                2,
                extracted(store.extract(ExtractionRequest.builder(5).build(), now.plus(ttl)))
                        .size(),
                "the proxies without expiry are still there");
    }

    @Test
    void aPublishThatChangesTheExpiryRequeuesTheProxyOnceUnderTheNewOne() {
        store.upsert(List.of(expiring(1, Duration.ofSeconds(10))), now);
        store.upsert(List.of(expiring(1, Duration.ofSeconds(100))), now); // same sets: keeps its place
        assertEquals(1, store.expiryQueueSize());
        assertEquals(0, store.purgeExpired(now.plusSeconds(10)), "not purged at the expiry it had");
        assertEquals(1, store.available(UPSTREAM));

        store.upsert(
                List.of(builder(1)
                        .labels(Labels.of("country", "US"))
                        .expiresAt(now.plusSeconds(200))
                        .build()),
                now); // other sets: detached and attached again
        assertEquals(1, store.expiryQueueSize());
        assertEquals(0, store.purgeExpired(now.plusSeconds(100)));

        store.upsert(List.of(proxy(1)), now); // no expiry any more: out of the queue
        assertEquals(0, store.expiryQueueSize());
        assertEquals(0, store.purgeExpired(now.plus(Duration.ofDays(3650))));
        assertEquals(1, store.available(UPSTREAM));
    }

    @Test
    void aPublishThatKeepsTheExpiryKeepsTheQueueEntryAndTheProxyStillExpiresThen() {
        Proxy p = expiring(1, Duration.ofSeconds(30));
        store.upsert(List.of(p), now);
        store.upsert(List.of(p), now.plusSeconds(10)); // listed again
        store.upsert(
                List.of(builder(1)
                        .labels(Labels.of("type", "residential"))
                        .expiresAt(p.expiresAt())
                        .build()),
                now.plusSeconds(20)); // relabelled, same expiry
        assertEquals(1, store.expiryQueueSize());
        assertEquals(0, store.purgeExpired(now.plusSeconds(29)));
        assertEquals(1, store.purgeExpired(now.plusSeconds(30)));
        assertEquals(0, store.expiryQueueSize());
        assertEquals(0, store.available(UPSTREAM));
    }

    @Test
    void disablingAndEnablingKeepsOneQueueEntryAndADisabledProxyStillExpires() {
        Proxy p = expiring(1, Duration.ofSeconds(10));
        store.upsert(List.of(p), now);
        assertTrue(store.setDisabled(p.id(), true));
        assertTrue(store.setDisabled(p.id(), false));
        assertTrue(store.setDisabled(p.id(), true));
        assertEquals(1, store.expiryQueueSize());
        assertEquals(1, store.countsByUpstream().get(UPSTREAM).disabled());

        assertEquals(1, store.purgeExpired(now.plusSeconds(10)));
        assertEquals(0, store.expiryQueueSize());
        assertTrue(store.countsByUpstream().isEmpty(), "nothing left of the upstream");
        assertTrue(store.get(p.id()).isEmpty());
    }

    @Test
    void anExtractionDropsTheExpiredLiveProxiesBeforeCountingAndPassesTheDeadOnes() {
        store.upsert(List.of(expiring(1, Duration.ofSeconds(5)), expiring(2, Duration.ofSeconds(5))), now);
        store.upsert(List.of(expiring(3, Duration.ofSeconds(50))), now);
        assertEquals(
                1,
                extracted(store.extract(ExtractionRequest.builder(1).build(), now))
                        .size());
        // at +5 s proxy 1 is dead (extracted) and proxy 2 expired: the reserve counts proxy 3 alone
        ExtractionResult r = store.extract(
                ExtractionRequest.builder(1).allOrNothing().gatewayReserve(1).build(), now.plusSeconds(5));
        assertEquals(new ExtractionResult.Insufficient(0), r);
        assertEquals(1, store.expiryQueueSize(), "proxy 3 alone is left in the queue");
        assertEquals(sortedIds(builder(3).build()), listedIds());
    }
}
