package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.coordination.SnapshotPublisher;
import dev.proxypool.sdk.coordination.WorkerRegistry;
import dev.proxypool.sdk.lock.RedisStageLock;
import dev.proxypool.testkit.PrivateRedisServer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * The pool store, the stage lease, the worker registry and the snapshot publisher classify the
 * same Redis failure the same way, because they share {@link RedisAccess}: a primary refusing
 * writes for lack of replicas ({@code NOREPLICAS}) is an outage for all of them, and foreign data
 * of the wrong type under their keys is a rejected command for all of them.
 */
class RedisErrorAgreementTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    private final String prefix = TestRedis.randomPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, prefix);
    }

    @Test
    void aPrimaryWithoutItsReplicasIsAnOutageForEveryUser() {
        try (PrivateRedisServer server = PrivateRedisServer.start();
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            admin.configSet("min-replicas-to-write", "1"); // no replica: every write is refused
            RedisStoreConfig config = RedisStoreConfig.fromUri("redis://127.0.0.1:" + server.port())
                    .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2));
            try (RedisPoolStore store = RedisPoolStore.connect(config, StoreSettings.DEFAULTS);
                    RedisStageLock lease = RedisStageLock.connect(config);
                    WorkerRegistry registry = WorkerRegistry.open(config, ClusterSettings.DEFAULTS, "w1", "test");
                    SnapshotPublisher publisher = SnapshotPublisher.open(
                            config, ClusterSettings.DEFAULTS, InstantSource.system(), Ticker.system())) {
                assertBusy(assertThrows(
                        StoreUnavailableException.class,
                        () -> store.beginIdempotent(new IdempotencyKey("c", "k"), "fp", Instant.now())));
                assertBusy(assertThrows(StoreUnavailableException.class, () -> lease.tryAcquire("stage", "a", TTL)));
                assertBusy(assertThrows(StoreUnavailableException.class, registry::heartbeat));
                assertBusy(assertThrows(StoreUnavailableException.class, () -> publisher.publish(List.of())));
            }
        }
    }

    private static void assertBusy(StoreUnavailableException e) {
        RedisUnavailableException r = (RedisUnavailableException) e;
        assertEquals(RedisFailure.BUSY, r.failure(), e.getMessage());
    }

    @Test
    void foreignDataOfTheWrongTypeIsARejectionForEveryUser() {
        RedisStoreConfig config = TestRedis.config(prefix);
        try (RedisClient admin = RedisClient.builder()
                        .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                        .build();
                RedisPoolStore store = RedisPoolStore.connect(config, StoreSettings.DEFAULTS);
                RedisStageLock lease = RedisStageLock.connect(config);
                WorkerRegistry registry = WorkerRegistry.open(config, ClusterSettings.DEFAULTS, "w1", "test")) {
            admin.set(new RedisKeys(prefix).idempotency().get(0), "not a hash");
            admin.hset(lease.key("stage"), "not", "a string");
            admin.set(prefix + "workers", "not a set");

            assertWrongType(assertThrows(
                    RedisCommandException.class,
                    () -> store.beginIdempotent(new IdempotencyKey("c", "k"), "fp", Instant.now())));
            assertWrongType(assertThrows(RedisCommandException.class, () -> lease.tryAcquire("stage", "a", TTL)));
            assertWrongType(assertThrows(RedisCommandException.class, registry::heartbeat));
        }
    }

    private static void assertWrongType(RedisCommandException e) {
        assertEquals(RedisFailure.WRONG_TYPE, e.failure(), e.getMessage());
    }
}
