package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.RedisClusterServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * On a real Redis Cluster: an extraction that leaves proxies extracted in Redis and not delivered
 * is never silent, and a durable script call never cuts another caller's connection.
 * <ul>
 *   <li>The connection of {@link RedisAccess#evalDurably} goes back to its pool once and stays
 *       open: closing it twice (the Jedis view, then the connection) disconnected a connection the
 *       pool had already lent to another caller, whose extraction then ran in Redis and lost its
 *       reply (the contract's republish race lost 6 to 15 of 2,000 proxies that way).</li>
 *   <li>An extraction whose masters cannot meet its {@code waitReplicas} (above the cluster's
 *       one replica per master) answers a retryable {@link StoreUnavailableException}, never a
 *       short answer, and takes nothing out of the pool.</li>
 * </ul>
 */
@Tag("slow")
class RedisClusterUndeliveredTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static List<Proxy> pool(int size) {
        List<Proxy> ps = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            ps.add(ProxyFixtures.builder(i)
                    .expiresAt(NOW.plus(Duration.ofHours(1)))
                    .build());
        }
        return ps;
    }

    @Test
    void durableCallsKeepTheirPooledConnectionOpenAndNeverCutAnotherCallers() throws Exception {
        RedisClusterConfig config = TestRedisCluster.config(1);
        RedisKeys shard = new RedisKeys(config.keyPrefix(), 0);
        String key = shard.pool().get(0);
        int master = masterPortOf(key);
        int threads = 8;
        int calls = 200;
        try (RedisAccess redis = RedisAccess.openCluster(config, "durable-test", threads)) {
            List<String> now = List.of(Long.toString(NOW.toEpochMilli()));
            // sequentially: the pool lends the same connection again, still open
            redis.evalDurably(
                    RedisClusterPoolStore.TOTAL, shard.pool(), now, config.waitReplicas(), config.waitTimeout());
            long before = connectionsReceived(master);
            for (int i = 0; i < 50; i++) {
                redis.evalDurably(
                        RedisClusterPoolStore.TOTAL, shard.pool(), now, config.waitReplicas(), config.waitTimeout());
            }
            // each measurement opens one connection of its own
            assertEquals(
                    1,
                    connectionsReceived(master) - before,
                    "50 sequential durable calls reuse the pooled connection (a second close disconnected it)");

            // concurrently: no caller's connection is closed under it
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < calls; i++) {
                            try {
                                redis.evalDurably(
                                        RedisClusterPoolStore.TOTAL,
                                        shard.pool(),
                                        now,
                                        config.waitReplicas(),
                                        config.waitTimeout());
                            } catch (RuntimeException e) {
                                failures.add(e.toString());
                            }
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(List.of(), List.copyOf(failures), "every one of " + threads * calls + " calls answered");
            long opened = connectionsReceived(master) - before - 2; // less the two measurements
            assertTrue(opened <= threads, "at most one connection per thread was opened, got " + opened);
        }
    }

    @Test
    void aDurableCallFollowsTheRedirectionAfterAFailoverItsClientHasNotSeen() {
        RedisClusterConfig config = TestRedisCluster.config(1);
        RedisKeys shard = new RedisKeys(config.keyPrefix(), 0);
        String key = shard.pool().get(0);
        List<String> now = List.of(Long.toString(NOW.toEpochMilli()));
        try (RedisAccess redis = RedisAccess.openCluster(config, "moved-test", 2)) {
            assertEquals(
                    0,
                    RedisReplies.number(redis.evalDurably(
                            RedisClusterPoolStore.TOTAL,
                            shard.pool(),
                            now,
                            config.waitReplicas(),
                            config.waitTimeout())));
            int master = masterPortOf(key);
            int replica = replicaOf(master);
            // a graceful failover (no data lost): the client's slot cache still names the old master
            try (Jedis r = new Jedis("127.0.0.1", replica)) {
                assertEquals("OK", r.clusterFailover());
            }
            Await.atMost(Duration.ofSeconds(30))
                    .until("the old master " + master + " is a replica", () -> "slave".equals(role(master)));
            assertEquals(
                    0,
                    RedisReplies.number(redis.evalDurably(
                            RedisClusterPoolStore.TOTAL,
                            shard.pool(),
                            now,
                            config.waitReplicas(),
                            config.waitTimeout())),
                    "MOVED from the old master is followed to the promoted one");
        } finally {
            TestRedisCluster.deleteKeys(config.keyPrefix());
        }
    }

    /**
     * An explicit {@code waitReplicas} the masters cannot meet (2, with one replica each) is refused
     * before the script runs: a retryable {@link StoreUnavailableException}, no proxy taken out of
     * the pool (before issue 37 each refused extraction took its proxies out, undelivered, so a
     * shard whose master lost its replica bled its pool away), and every shard reported refusing
     * with the reason.
     */
    @Test
    void aWaitTheMastersCannotMeetIsRefusedBeforeAnyProxyLeavesThePool() {
        RedisClusterConfig config = TestRedisCluster.config(4).withWait(2, Duration.ofMillis(50));
        try (RedisClusterPoolStore store = RedisClusterPoolStore.connect(config, StoreSettings.DEFAULTS)) {
            int size = 400;
            store.upsert(pool(size), NOW);
            ExtractionRequest partial = ExtractionRequest.builder(10).build();
            StoreUnavailableException e =
                    assertThrows(StoreUnavailableException.class, () -> store.extract(partial, NOW));
            assertTrue(e.getMessage().contains("store.waitReplicas is 2"), e.getMessage());
            ExtractionRequest whole = ExtractionRequest.builder(3)
                    .fulfillment(Fulfillment.ALL_OR_NOTHING)
                    .build();
            assertThrows(StoreUnavailableException.class, () -> store.extract(whole, NOW));
            assertEquals(size, store.available(ProxyFixtures.UPSTREAM), "no proxy left the pool");
            assertEquals(0, store.undeliveredProxies());
            assertEquals(0, store.uncertainExtractions());
            for (ShardWait w : store.durability()) {
                assertEquals(ShardWait.State.REFUSING, w.state(), w.toString());
                assertEquals(2, w.waitReplicas(), w.toString());
                assertEquals(1, w.onlineReplicas(), w.toString());
                assertTrue(w.reason().contains("1 replica(s) online, store.waitReplicas is 2"), w.reason());
            }
        } finally {
            TestRedisCluster.deleteKeys(config.keyPrefix());
        }
    }

    /**
     * A replica that hangs (SIGSTOP: its link stays online, it acknowledges nothing) under an explicit
     * {@code waitReplicas} of 1: its master runs each extraction, {@code WAIT} times out, the caller gets
     * a retryable {@link StoreUnavailableException}, and the proxies the script took are counted as
     * undelivered, by the fast path's reply ({3, record...}) as by the general script's; they
     * have left the pool and are never handed out. The fast path's replies once counted 0.
     */
    @Test
    void extractionsThatRanWithoutTheirAcknowledgementAreCountedAsUndelivered() {
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 1, Duration.ofSeconds(5), false)) {
            RedisClusterConfig config = RedisClusterConfig.of(cluster.nodes())
                    .withKeyPrefix("pptest:" + UUID.randomUUID() + ":")
                    .withShards(1)
                    .withWait(1, Duration.ofMillis(300));
            try (RedisClusterPoolStore store = RedisClusterPoolStore.connect(config, StoreSettings.DEFAULTS)) {
                store.upsert(pool(50), NOW);
                assertEquals(
                        1, extracted(store.extract(ExtractionRequest.builder(1).build(), NOW)));
                int master = cluster.masterOf("{" + config.keyPrefix() + "0}:a");
                List<Integer> replicas = cluster.replicasOf(master);
                assertEquals(1, replicas.size(), "the master of shard 0 and its replica: " + replicas);
                cluster.pause(replicas.get(0));
                try {
                    for (ExtractionRequest r : List.of(
                            ExtractionRequest.builder(1).build(),
                            ExtractionRequest.builder(3)
                                    .fulfillment(Fulfillment.ALL_OR_NOTHING)
                                    .build())) {
                        StoreUnavailableException e =
                                assertThrows(StoreUnavailableException.class, () -> store.extract(r, NOW));
                        assertTrue(e.getMessage().contains("acknowledged"), e.getMessage());
                    }
                } finally {
                    cluster.resume(replicas.get(0));
                }
                assertEquals(4, store.undeliveredProxies(), "1 + 3 proxies taken by scripts whose WAIT failed");
                assertEquals(0, store.uncertainExtractions());
                assertEquals(50 - 1 - 4, store.available(ProxyFixtures.UPSTREAM), "they left the pool");
                assertEquals(
                        45,
                        extracted(store.extract(ExtractionRequest.builder(50).build(), NOW)),
                        "the rest");
            }
        }
    }

    private static int extracted(ExtractionResult r) {
        return r instanceof ExtractionResult.Extracted e ? e.count() : -1;
    }

    /** The default wait: every master has a replica online, every shard waits for 1 (full durability). */
    @Test
    void withTheDefaultWaitEveryShardOfAClusterWithReplicasWaitsForOne() {
        RedisClusterPoolStore store = TestRedisCluster.store(StoreSettings.DEFAULTS, 4);
        try (store) {
            store.upsert(pool(40), NOW);
            store.extract(ExtractionRequest.builder(10).build(), NOW);
            List<ShardWait> shards = store.durability();
            assertEquals(4, shards.size());
            for (ShardWait w : shards) {
                assertEquals(ShardWait.State.FULL, w.state(), w.toString());
                assertEquals(1, w.waitReplicas(), w.toString());
                assertEquals(1, w.onlineReplicas(), w.toString());
                assertFalse(w.master().isEmpty(), w.toString());
            }
        } finally {
            TestRedisCluster.deleteKeys(store.keyPrefix());
        }
    }

    @Test
    void acknowledgedConcurrentExtractionsDeliverEveryProxyExactlyOnce() throws Exception {
        RedisClusterPoolStore store = TestRedisCluster.store(StoreSettings.DEFAULTS, 4);
        try (store) {
            drainExactlyOnce(
                    store, 600, 8, t -> ExtractionRequest.builder(1 + t * 2).build());
        } finally {
            TestRedisCluster.deleteKeys(store.keyPrefix());
        }
    }

    @Test
    void countOneExtractionsAreCoalescedPerShardAndDeliveredExactlyOnce() throws Exception {
        // 16 threads of count=1 extractions, the API's common call: each shard serves the requests that
        // arrive together with one call and one WAIT (its coalescer), each request answered alone
        RedisClusterPoolStore store = TestRedisCluster.store(StoreSettings.DEFAULTS, 2);
        try (store) {
            int size = 2000;
            drainExactlyOnce(
                    store,
                    size,
                    16,
                    t -> ExtractionRequest.builder(1)
                            .fulfillment(t % 2 == 0 ? Fulfillment.PARTIAL : Fulfillment.ALL_OR_NOTHING)
                            .build());
            long calls = store.oneEach(0).calls() + store.oneEach(1).calls();
            long requests = store.oneEach(0).requests() + store.oneEach(1).requests();
            assertTrue(requests >= size, "count=1 requests on the shards' fast path: " + requests);
            assertTrue(calls < requests, "coalesced: " + requests + " requests in " + calls + " calls");
        } finally {
            TestRedisCluster.deleteKeys(store.keyPrefix());
        }
    }

    /**
     * Publishes {@code size} proxies, then {@code threads} threads extract (thread t its
     * {@code requestOf(t)}) until they get none; asserts every proxy was delivered exactly once and
     * none was left undelivered or uncertain.
     */
    private static void drainExactlyOnce(
            RedisClusterPoolStore store, int size, int threads, IntFunction<ExtractionRequest> requestOf)
            throws Exception {
        store.upsert(pool(size), NOW);
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        Map<String, Integer> twice = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                ExtractionRequest request = requestOf.apply(t);
                done.add(pool.submit(() -> {
                    while (true) {
                        ExtractionResult r = store.extract(request, NOW);
                        if (!(r instanceof ExtractionResult.Extracted e) || e.count() == 0) {
                            return null;
                        }
                        for (ExtractedProxy p : e.proxies()) {
                            if (!delivered.add(p.id())) {
                                twice.merge(p.id(), 1, Integer::sum);
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(Map.of(), twice);
        assertEquals(0, store.undeliveredProxies());
        assertEquals(0, store.uncertainExtractions());
        assertEquals(size, delivered.size(), "every proxy delivered exactly once");
    }

    private static int masterPortOf(String key) {
        return TestRedisCluster.cluster().masterOf(key);
    }

    private static String role(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            for (String line : j.info("replication").split("\r?\n")) {
                if (line.startsWith("role:")) {
                    return line.substring("role:".length()).trim();
                }
            }
        }
        return "";
    }

    private static int replicaOf(int masterPort) {
        String masterId;
        try (Jedis j = new Jedis("127.0.0.1", masterPort)) {
            masterId = j.clusterMyId();
            for (String line : j.clusterNodes().split("\n")) {
                String[] f = line.split(" ");
                if (f.length > 3 && f[2].contains("slave") && f[3].equals(masterId) && !f[2].contains("fail")) {
                    String addr = f[1].substring(0, f[1].indexOf('@'));
                    return Integer.parseInt(addr.substring(addr.lastIndexOf(':') + 1));
                }
            }
        }
        throw new AssertionError("master " + masterPort + " has no live replica");
    }

    private static long connectionsReceived(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            for (String line : j.info("stats").split("\r?\n")) {
                if (line.startsWith("total_connections_received:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        throw new AssertionError("no total_connections_received in INFO stats of " + port);
    }
}
