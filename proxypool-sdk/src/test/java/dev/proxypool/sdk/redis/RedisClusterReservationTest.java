package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reservations behind allOrNothing across shards, on a real Redis Cluster: a reservation whose
 * caller died (never committed nor released) returns its proxies to AVAILABLE once its deadline
 * passed, a commit after that extracts nothing, a committed proxy never returns, and a retried
 * reserve call (reply lost) never reserves a second time under its token.
 */
class RedisClusterReservationTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aDeadCallersReservationReturnsAfterItsDeadlineAndACommittedOneNever() {
        RedisClusterConfig config = TestRedisCluster.config(1);
        try (RedisClusterPoolStore store = RedisClusterPoolStore.connect(config, StoreSettings.DEFAULTS);
                RedisAccess redis = RedisAccess.openCluster(config, "test", 4)) {
            List<Proxy> pool = pool(0, 10);
            store.upsert(pool, NOW);
            RedisKeys shard = new RedisKeys(config.keyPrefix(), 0);
            long deadline = NOW.plusSeconds(10).toEpochMilli();

            assertEquals(4, reserve(redis, shard, "dead", 4, deadline));
            assertEquals(4, reserve(redis, shard, "dead", 4, deadline), "a retried call finds its reservation");
            assertEquals(6, store.available(ProxyFixtures.UPSTREAM), "4 reserved are out of AVAILABLE");
            assertEquals(6, store.countsByUpstream().get(ProxyFixtures.UPSTREAM).available());

            store.purgeExpired(NOW.plusSeconds(5));
            assertEquals(6, store.available(ProxyFixtures.UPSTREAM), "before its deadline it stays reserved");
            store.purgeExpired(NOW.plusSeconds(11));
            assertEquals(10, store.available(ProxyFixtures.UPSTREAM), "after it, the dead caller's proxies return");
            assertEquals(List.of(), commit(redis, shard, "dead"), "a commit after the deadline extracts nothing");

            assertEquals(3, reserve(redis, shard, "live", 3, deadline));
            List<?> committed = commit(redis, shard, "live");
            assertEquals(3, committed.size());
            store.purgeExpired(NOW.plusSeconds(11));
            assertEquals(7, store.available(ProxyFixtures.UPSTREAM), "a committed proxy never returns");
            for (Object r : committed) {
                Proxy p = ProxyCodec.decode(RedisReplies.string(r));
                assertTrue(store.isTombstoned(p.key(), NOW), p.id() + " is tombstoned");
                assertTrue(store.get(p.id()).isEmpty(), p.id() + " left the pool");
            }
        } finally {
            TestRedisCluster.deleteKeys(config.keyPrefix());
        }
    }

    @Test
    void aReservedProxyStaysReservedThroughARefreshAndAHoldUntilItsCommitOrRelease() {
        RedisClusterConfig config = TestRedisCluster.config(1);
        try (RedisClusterPoolStore store = RedisClusterPoolStore.connect(config, StoreSettings.DEFAULTS);
                RedisAccess redis = RedisAccess.openCluster(config, "test", 4)) {
            List<Proxy> pool = pool(0, 10);
            store.upsert(pool, NOW);
            RedisKeys shard = new RedisKeys(config.keyPrefix(), 0);
            long deadline = NOW.plusSeconds(10).toEpochMilli();

            // published again (the next collection round) while reserved: still reserved, uncounted;
            // before, the refresh made it available too, so another extraction could take it and the
            // reservation's commit came back short
            assertEquals(4, reserve(redis, shard, "refreshed", 4, deadline));
            assertEquals(10, store.upsert(pool, NOW).refreshed());
            assertEquals(6, store.available(ProxyFixtures.UPSTREAM), "the 4 reserved stay out of AVAILABLE");
            java.util.Set<String> handed = new java.util.HashSet<>();
            var others = (dev.proxypool.core.extract.ExtractionResult.Extracted)
                    store.extract(ExtractionRequest.builder(10).partial().build(), NOW);
            others.proxies().forEach(p -> assertTrue(handed.add(p.proxy().id())));
            assertEquals(6, handed.size(), "only the 6 not reserved");
            List<?> committed = commit(redis, shard, "refreshed");
            assertEquals(4, committed.size(), "the commit gets every proxy it reserved");
            for (Object r : committed) {
                String id = ProxyCodec.decode(RedisReplies.string(r)).id();
                assertTrue(handed.add(id), "handed out twice: " + id);
            }
            assertEquals(0, store.available(ProxyFixtures.UPSTREAM));

            // held by health while reserved: released, it returns held (counted, not extractable)
            List<Proxy> second = pool(10, 20);
            store.upsert(second, NOW);
            assertEquals(4, reserve(redis, shard, "held", 4, deadline));
            store.markUnhealthy(second.stream().map(Proxy::id).toList(), NOW.plus(Duration.ofMinutes(10)));
            store.purgeExpired(NOW.plusSeconds(11)); // the reservation's deadline passed: released
            assertEquals(10, store.available(ProxyFixtures.UPSTREAM), "all 10 available again, 10 held");
            var none = (dev.proxypool.core.extract.ExtractionResult.Extracted)
                    store.extract(ExtractionRequest.builder(10).partial().build(), NOW.plusSeconds(11));
            assertEquals(List.of(), none.proxies(), "held, none extractable");
            store.markHealthy(second.stream().map(Proxy::id).toList());
            var all = (dev.proxypool.core.extract.ExtractionResult.Extracted)
                    store.extract(ExtractionRequest.builder(10).partial().build(), NOW.plusSeconds(11));
            assertEquals(10, all.proxies().size(), "healthy again, all 10");
        } finally {
            TestRedisCluster.deleteKeys(config.keyPrefix());
        }
    }

    /** Proxies {@code from..to-1}, expiring an hour after {@link #NOW}. */
    private static List<Proxy> pool(int from, int to) {
        List<Proxy> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(ProxyFixtures.builder(i)
                    .expiresAt(NOW.plus(Duration.ofHours(1)))
                    .build());
        }
        return out;
    }

    private static long reserve(RedisAccess redis, RedisKeys shard, String token, int count, long deadline) {
        List<String> args = RedisPoolStore.extractArgs(
                ExtractionRequest.builder(count).build(), NOW, StoreSettings.DEFAULTS, count, "r", 0);
        args.add(token);
        args.add(Long.toString(deadline));
        List<?> r = RedisReplies.list(redis.eval(RedisPoolStore.EXTRACT, shard.withReservations(), args));
        assertEquals(2, RedisReplies.number(r.get(0)));
        return RedisReplies.number(r.get(1));
    }

    private static List<?> commit(RedisAccess redis, RedisKeys shard, String token) {
        return RedisReplies.list(redis.eval(
                RedisClusterPoolStore.COMMIT,
                shard.withReservations(),
                List.of(
                        Long.toString(NOW.toEpochMilli()),
                        Long.toString(StoreSettings.DEFAULTS
                                .tombstoneRetentionForNoExpiry()
                                .toMillis()),
                        token)));
    }
}
