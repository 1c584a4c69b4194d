package dev.proxypool.sdk.cluster;

import static dev.proxypool.sdk.cluster.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.Pace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

class WorkerRegistryTest {

    private final String prefix = RedisFixture.randomPrefix();
    private final RedisStoreConfig redis = RedisFixture.config(RedisFixture.SHARED_PORT, prefix);
    private final ClusterSettings settings = ClusterSettings.DEFAULTS.withWorkerTtl(Duration.ofMillis(600));

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    @Test
    void liveWorkersAreCountedAndLeaveOnCloseOrByTtl() throws Exception {
        try (WorkerRegistry a = WorkerRegistry.open(redis, settings, "worker-a", "127.0.0.1:8080");
                WorkerRegistry b = WorkerRegistry.open(redis, settings, "worker-b", "127.0.0.1:8081");
                WorkerRegistry c = WorkerRegistry.open(redis, settings, "worker-c", "127.0.0.1:8082");
                WorkerRegistry silent = WorkerRegistry.open(redis, settings, "worker-silent", "");
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            assertEquals(0, a.count());
            a.start();
            b.start();
            c.start();
            silent.heartbeat(); // one heartbeat, then nothing: as if the process froze
            assertEquals(List.of("worker-a", "worker-b", "worker-c", "worker-silent"), a.live());
            long pttl = raw.pttl(prefix + "workers:worker-a");
            assertTrue(pttl > 0 && pttl <= 600, "the key's TTL is Redis' to count down: " + pttl);
            assertEquals("127.0.0.1:8081", raw.get(prefix + "workers:worker-b"));

            b.close();
            assertEquals(List.of("worker-a", "worker-c", "worker-silent"), a.live(), "a closed worker leaves at once");
            // the silent worker's key expires on Redis' clock; the heartbeating ones stay (3+ TTLs of waiting)
            awaitTrue(() -> a.count() == 2, "the silent worker expires");
            Pace.sleep(Duration.ofSeconds(1)); // over a TTL more in which the heartbeating workers must stay
            assertEquals(List.of("worker-a", "worker-c"), c.live());
            assertTrue(!raw.sismember(prefix + "workers", "worker-silent"), "expired ids leave the index");
        }
    }

    /** docs/design.md#capacity (C5): each worker gets max(1, maxConcurrency / workers) of every proxy. */
    @Test
    void eachWorkerGetsItsShareOfEveryProxysConcurrency() {
        ManualClock clock = new ManualClock();
        Proxy p = Proxies.pool(1, 1).getFirst().toBuilder().maxConcurrency(10).build();
        int[][] table = { // workers, share
            {1, 10}, {2, 5}, {3, 3}, {4, 2}, {10, 1}, {16, 1}, {100, 1}
        };
        for (int[] row : table) {
            RuntimeRegistry registry = new RuntimeRegistry(HealthPolicy.DEFAULTS, clock, row[0]);
            assertEquals(row[1], registry.runtimeFor(p).capacity().limit(), row[0] + " workers");
        }
    }

    @Test
    void badWorkerIdsNameTheProblem() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> WorkerRegistry.open(redis, settings, "bad id", ""));
        assertTrue(e.getMessage().contains("'bad id'"), e.getMessage());
    }
}
