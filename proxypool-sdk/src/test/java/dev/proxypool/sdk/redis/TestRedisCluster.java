package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.testkit.RedisClusterServer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * One real Redis Cluster (3 masters + 3 replicas, {@link RedisClusterServer}) shared by the tests
 * of this JVM, started on first use and stopped (its directory deleted) when the JVM exits; each
 * store gets its own random key prefix and {@link #deleteKeys} removes its keys from every master.
 */
final class TestRedisCluster {

    private static RedisClusterServer cluster;

    private TestRedisCluster() {}

    /** The shared cluster, started on first use. */
    static synchronized RedisClusterServer cluster() {
        if (cluster == null) {
            RedisClusterServer c = RedisClusterServer.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::close, "redis-cluster-stop"));
            cluster = c;
        }
        return cluster;
    }

    static RedisClusterConfig config(int shards) {
        return RedisClusterConfig.of(cluster().nodes())
                .withKeyPrefix("pptest:" + UUID.randomUUID() + ":")
                .withShards(shards)
                // the contract counts every proxy delivered exactly once: a replica's late ack (2 cores,
                // 6 Redis processes and the test) must not withhold an extraction; the failover tests
                // exercise the default short wait. store.waitTimeout must stay below the 2 s socket
                // timeout (RedisClusterConfig refuses more).
                .withWait(RedisClusterConfig.WAIT_AUTO, Duration.ofMillis(1500))
                .withMaxConnections(48);
    }

    static RedisClusterPoolStore store(StoreSettings settings, int shards) {
        return RedisClusterPoolStore.connect(config(shards), settings);
    }

    /**
     * Deletes every key under the tags {@code {<prefix>...}} on every live master; returns how many. A
     * node is asked its own role first: right after another test's failover, the cluster's view can
     * still list a demoted master, whose keys are a replica's copy (UNLINK there answers MOVED).
     */
    static long deleteKeys(String prefix) {
        long n = 0;
        for (int port : cluster().masterPorts()) {
            try (Jedis j = new Jedis("127.0.0.1", port)) {
                if (!j.info("replication").contains("role:master")) {
                    continue;
                }
                ScanParams params = new ScanParams()
                        .match("{" + prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*")
                        .count(1000);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = j.scan(cursor, params);
                    List<String> keys = page.getResult();
                    for (String k : keys) {
                        n += j.unlink(k);
                    }
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
        return n;
    }
}
