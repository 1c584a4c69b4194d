package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.server.ProxyPoolServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * The {@code cluster} section of {@code proxypool.yaml} reaches the running processes: a worker's
 * liveness key in the shared Redis carries the configured {@code cluster.workerTtl} (the default
 * is 15 s). Real Redis on 127.0.0.1:6379 under a random key prefix, removed afterwards.
 */
class ClusterConfigEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void aConfiguredWorkerTtlIsTheTtlOfTheWorkersKey() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                health: { active: { enabled: false } }
                cluster: { workerTtl: 6s, validity: 2m, renewAfter: 30s }
                """.formatted(prefix));
        try (RedisClient redis =
                        RedisClient.builder().hostAndPort("127.0.0.1", 6379).build();
                ProxyPoolServer control = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .role(ServeRole.CONTROL)
                        .configDir(dir)
                        .start();
                ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .role(ServeRole.WORKER)
                        .configDir(dir)
                        .start()) {
            Set<String> workers = redis.smembers(prefix + "workers");
            assertEquals(1, workers.size(), "one worker registered: " + workers);
            long ttl = redis.pttl(prefix + "workers:" + List.copyOf(workers).getFirst());
            assertTrue(
                    ttl > 2_000 && ttl <= 6_000,
                    "the worker key's TTL follows cluster.workerTtl (6 s), got " + ttl + " ms");
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }
}
