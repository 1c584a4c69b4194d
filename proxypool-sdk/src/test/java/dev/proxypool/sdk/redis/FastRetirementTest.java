package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * A proxy the fast path (extract_fast.lua, count=1) takes from a set is retired by the command that
 * takes it: {@code SMOVE} from the available set into {@code T y} (common.lua), one it pops without a
 * filter by {@code SADD} there; its tombstone end is its expiry, or, for one without expiry, written
 * in {@code T g} by the same call. Every script
 * treats it as retired, as one of {@code T g}: not readable, not listed, not disabled, held or
 * checked, its key tombstoned against a publish; a publish of its id under another key collects it
 * first, and the purge collects it with its exact tombstone end. Real redis-server (private);
 * {@link LayoutAudit} after each step.
 */
@Tag("slow")
class FastRetirementTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final StoreSettings SETTINGS =
            StoreSettings.builder().tombstoneRetentionForNoExpiry(RETENTION).build();

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    private static Proxy proxy(int n, Instant expiresAt) {
        Proxy.Builder b = ProxyFixtures.builder(n).labels(Labels.of("country", "US", "type", "residential"));
        return (expiresAt == null ? b : b.expiresAt(expiresAt)).build();
    }

    private static ExtractionRequest twoLabels() {
        return ExtractionRequest.builder(1)
                .filter(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "residential")
                        .build())
                .build();
    }

    @Test
    void aProxyTheFastPathTookIsRetiredEverywhereUntilThePurgeWritesItsTombstone() {
        String prefix = "ppretire:";
        RedisKeys keys = new RedisKeys(prefix);
        Instant expiry = NOW.plus(Duration.ofHours(2));
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, SETTINGS);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            Proxy elsewhere = ProxyFixtures.builder(4)
                    .labels(Labels.of("country", "DE", "type", "residential"))
                    .expiresAt(expiry)
                    .build();
            List<Proxy> pool = List.of(proxy(0, expiry), proxy(1, expiry), proxy(2, null), proxy(3, null), elsewhere);
            assertEquals(5, store.upsert(pool, NOW).added());
            Map<String, Proxy> taken = new HashMap<>();
            for (int i = 0; i < 4; i++) { // the filtered fast path: SMOVE into T y
                ExtractionResult r = store.extract(twoLabels(), NOW);
                Proxy p = assertInstanceOf(ExtractionResult.Extracted.class, r)
                        .proxies()
                        .get(0)
                        .proxy();
                assertEquals(null, taken.put(p.id(), p), "extracted twice: " + p.id());
            }
            Proxy unfiltered = assertInstanceOf(
                            ExtractionResult.Extracted.class,
                            store.extract(ExtractionRequest.builder(1).build(), NOW))
                    .proxies()
                    .get(0)
                    .proxy();
            assertEquals(elsewhere.id(), unfiltered.id(), "the last one, without a filter: SPOP, then SADD T y");
            taken.put(unfiltered.id(), unfiltered);
            assertEquals(0, store.generalExtractionCalls(), "all five by the fast path");
            assertEquals(5L, c.scard(keys.poolTag() + "y"), "retired by the fast path");
            assertEquals(2L, c.hlen(keys.poolTag() + "g"), "the ends of the two without expiry written");
            assertEquals(0L, c.scard(keys.poolTag() + "a"));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "before the purge");
            for (Proxy p : taken.values()) {
                assertTrue(store.get(p.id()).isEmpty(), "not readable once extracted: " + p.id());
                assertTrue(store.isTombstoned(p.key(), NOW), "its key tombstoned: " + p.id());
                assertFalse(store.setDisabled(p.id(), true), "not disabled: " + p.id());
                assertEquals(0, store.markUnhealthy(List.of(p.id()), NOW.plusSeconds(60)), "not held");
                assertEquals(0, store.markChecked(List.of(p.id()), NOW), "not checked");
                assertEquals(0, store.remove(List.of(p.id())), "not removed: it is gone already");
            }
            assertEquals(new PublishResult(0, 0, 5, 0, 0), store.upsert(pool, NOW), "published again: all tombstoned");
            assertEquals(
                    List.of(), store.list(PoolQuery.ALL, PageRequest.first(10)).proxies(), "none listed");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "after those calls");

            Instant purged = NOW.plusSeconds(10);
            store.purgeExpired(purged);
            assertEquals(0L, c.scard(keys.poolTag() + "y"), "collected by the purge");
            assertEquals(0L, c.hlen(keys.poolTag() + "g"));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "after the purge");
            for (Proxy p : taken.values()) {
                Double end = c.zscore(keys.poolTag() + "t", RedisKeys.physical(p.key()));
                long expected = p.expires()
                        ? p.expiresAt().toEpochMilli()
                        : NOW.plus(RETENTION).toEpochMilli();
                assertEquals((double) expected, end, "the tombstone end of " + p.id());
                assertTrue(
                        store.isTombstoned(p.key(), NOW.plus(Duration.ofMinutes(30))), "still tombstoned: " + p.id());
            }
            for (Proxy p : pool) {
                // until its expiry, or without one retention from its extraction, exactly
                Instant end = p.expires() ? p.expiresAt() : NOW.plus(RETENTION);
                assertTrue(store.isTombstoned(p.key(), end.minusMillis(1)), "tombstoned until its end: " + p.id());
                assertFalse(store.isTombstoned(p.key(), end), "then ended: " + p.id());
            }
        }
    }

    @Test
    void anIdOfTyPublishedAgainUnderAnotherKeyIsCollectedFirst() {
        String prefix = "ppretirekey:";
        RedisKeys keys = new RedisKeys(prefix);
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, SETTINGS);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            Instant expiry = NOW.plus(Duration.ofHours(2));
            Proxy first = ProxyFixtures.builder(7)
                    .id("the-same-id")
                    .labels(Labels.of("country", "US", "type", "residential"))
                    .expiresAt(expiry)
                    .build();
            assertEquals(1, store.upsert(List.of(first), NOW).added());
            ExtractionResult r = store.extract(twoLabels(), NOW);
            assertEquals(
                    "the-same-id",
                    assertInstanceOf(ExtractionResult.Extracted.class, r)
                            .proxies()
                            .get(0)
                            .proxy()
                            .id());
            assertTrue(c.sismember(keys.poolTag() + "y", "the-same-id"), "retired by the fast path");
            assertEquals(0L, c.hlen(keys.poolTag() + "g"), "its end is its expiry: nothing in T g");

            ProxyKey elsewhere = ProxyFixtures.key(8, first.key().protocol());
            Proxy again = Proxy.builder(elsewhere)
                    .id("the-same-id")
                    .provider("fixture")
                    .upstream(ProxyFixtures.UPSTREAM)
                    .labels(Labels.of("country", "US", "type", "residential"))
                    .build();
            Instant later = NOW.plusSeconds(3);
            assertEquals(1, store.upsert(List.of(again), later).added(), "a new proxy under the id");
            assertFalse(c.sismember(keys.poolTag() + "y", "the-same-id"), "the retired one collected first");
            assertEquals(
                    (double) expiry.toEpochMilli(),
                    c.zscore(keys.poolTag() + "t", RedisKeys.physical(first.key())),
                    "its old key tombstoned until its expiry");
            assertTrue(store.isTombstoned(first.key(), later));
            assertEquals(
                    elsewhere, store.get("the-same-id").orElseThrow().proxy().key());
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
            List<String> left = new ArrayList<>(c.keys("{" + prefix + "*"));
            for (String key : left) {
                c.del(key);
            }
        }
    }
}
