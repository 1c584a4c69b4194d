package dev.proxypool.sdk.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.TestPorts;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The lease contract on the machine's Redis (127.0.0.1:6379) under a random key prefix, removed after. */
class RedisStageLockTest extends StageLeaseContract {

    private final String prefix = "pptest:" + UUID.randomUUID() + ":";
    private final RedisClient admin =
            RedisClient.builder().hostAndPort("127.0.0.1", 6379).build();

    @Override
    StageLock create() {
        return RedisStageLock.connect(RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix));
    }

    /** Redis' own clock expires the key: wait (bounded) until it is gone. */
    @Override
    void lapse(StageLock lease, String stage) {
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "the lease of " + stage + " to lapse (holder)",
                        () -> lease.currentHolder(stage),
                        holder -> holder.isEmpty());
    }

    @AfterEach
    void removeKeys() {
        for (String key : admin.keys(prefix + "*")) {
            admin.del(key);
        }
        admin.close();
    }

    @Test
    void theLeaseIsOneKeyWithTheHolderAndARedisExpiry() {
        RedisStageLock redis = (RedisStageLock) lease;
        assertTrue(redis.tryAcquire(stage, "a", Duration.ofSeconds(30)));
        assertEquals("a", admin.get(prefix + "lease:" + stage));
        long ttl = admin.pttl(redis.key(stage));
        assertTrue(ttl > 25_000 && ttl <= 30_000, "pttl " + ttl);
        assertTrue(redis.renew(stage, "a", Duration.ofSeconds(60)));
        assertTrue(admin.pttl(redis.key(stage)) > 55_000);
    }

    @Test
    void flushedScriptsAreLoadedAgain() {
        assertTrue(lease.tryAcquire(stage, "a", Duration.ofSeconds(30)));
        assertTrue(lease.renew(stage, "a", Duration.ofSeconds(30)));
        admin.scriptFlush();
        assertTrue(lease.renew(stage, "a", Duration.ofSeconds(30)), "NOSCRIPT answered by a reload");
        admin.scriptFlush();
        assertTrue(lease.release(stage, "a"));
        assertEquals(Optional.empty(), lease.currentHolder(stage));
    }

    @Test
    void anUnreachableRedisIsStoreUnavailable() throws Exception {
        int closed = TestPorts.closedPort();
        RedisStoreConfig cfg = new RedisStoreConfig(
                "127.0.0.1", closed, "", "", 0, prefix, Duration.ofMillis(500), Duration.ofMillis(500), 2);
        try (RedisStageLock down = RedisStageLock.connect(cfg)) {
            assertThrows(StoreUnavailableException.class, () -> down.tryAcquire(stage, "a", TTL));
            assertThrows(StoreUnavailableException.class, () -> down.renew(stage, "a", TTL));
            assertThrows(StoreUnavailableException.class, () -> down.currentHolder(stage));
        }
        assertFalse(lease.currentHolder(stage).isPresent());
    }
}
