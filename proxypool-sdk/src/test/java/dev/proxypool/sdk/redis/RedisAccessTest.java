package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.PrivateRedisServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisClusterException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@link RedisAccess} against real servers: the machine's shared Redis (under a private key
 * prefix), a private redis-server this test may turn into a replica or block, a closed port and a
 * silent socket. Every wait polls a condition with a deadline.
 */
class RedisAccessTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final String prefix = TestRedis.randomPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, prefix);
    }

    private static RedisStoreConfig at(int port) {
        return RedisStoreConfig.fromUri("redis://127.0.0.1:" + port)
                .withTimeouts(Duration.ofMillis(500), Duration.ofMillis(500));
    }

    @Test
    void aScriptLostBySCRIPT_FLUSHIsLoadedAgainAndRunOnce() {
        // unique source: this test's own SHA, so no other test's load can hide the flush
        RedisScript incr = RedisScript.of(
                "incr-test", "-- " + UUID.randomUUID() + "\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])");
        String key = prefix + "counter";
        try (RedisAccess redis = RedisAccess.open(TestRedis.config(prefix), "test", 2);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                        .build()) {
            assertFalse(admin.scriptExists(List.of(incr.sha())).get(0), "never loaded yet");
            assertEquals(5L, redis.eval(incr, List.of(key), List.of("5")), "NOSCRIPT on first use: loaded, run once");
            assertTrue(admin.scriptExists(List.of(incr.sha())).get(0));

            assertEquals("OK", admin.scriptFlush());
            assertFalse(admin.scriptExists(List.of(incr.sha())).get(0), "flushed");
            assertEquals(12L, redis.eval(incr, List.of(key), List.of("7")), "reloaded and run exactly once");
            assertEquals("12", admin.get(key));
            assertTrue(admin.scriptExists(List.of(incr.sha())).get(0));

            admin.scriptFlush();
            byte[] bkey = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(13L, redis.evalBinary(incr, List.of(bkey), List.of(new byte[] {'1'})), "binary variant too");
        }
    }

    @Test
    void preloadedScriptsRunWithoutALoad() {
        RedisScript get = RedisScript.of("get-test", "-- " + UUID.randomUUID() + "\nreturn redis.call('GET', KEYS[1])");
        try (RedisAccess redis = RedisAccess.open(TestRedis.config(prefix), "test", 1);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                        .build()) {
            redis.load(List.of(get));
            assertTrue(admin.scriptExists(List.of(get.sha())).get(0));
            admin.set(prefix + "k", "v");
            assertEquals("v", RedisReplies.string(redis.eval(get, List.of(prefix + "k"), List.of())));
        }
    }

    @Test
    void aClosedPortIsUnreachable() {
        int port = PrivateRedisServer.freePort();
        try (RedisAccess redis = RedisAccess.open(at(port), "test", 1)) {
            RedisUnavailableException e =
                    assertThrows(RedisUnavailableException.class, () -> redis.call(c -> c.get("k")));
            assertEquals(RedisFailure.UNREACHABLE, e.failure());
            assertTrue(
                    e.getMessage().startsWith("Redis at 127.0.0.1:" + port + " is unavailable (unreachable)"),
                    e.getMessage());
            assertTrue(e instanceof StoreUnavailableException);
            RedisUnavailableException s = assertThrows(
                    RedisUnavailableException.class,
                    () -> redis.eval(RedisScript.of("x", "return 1"), List.of(), List.of()));
            assertEquals(RedisFailure.UNREACHABLE, s.failure());
            RedisUnavailableException d = assertThrows(RedisUnavailableException.class, redis::dedicatedConnection);
            assertEquals(RedisFailure.UNREACHABLE, d.failure());
        }
    }

    @Test
    void aServerThatNeverAnswersIsATimeout() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                RedisAccess redis = RedisAccess.open(at(silent.getLocalPort()), "test", 1)) {
            long started = System.nanoTime();
            RedisUnavailableException e =
                    assertThrows(RedisUnavailableException.class, () -> redis.call(c -> c.get("k")));
            assertEquals(RedisFailure.TIMEOUT, e.failure(), e.getMessage());
            assertTrue(
                    Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(5)) < 0,
                    "within the timeouts");
        }
    }

    @Test
    void wrongTypeScriptErrorsAndScriptRepliesAreRejectionsNotOutages() {
        try (RedisAccess redis = RedisAccess.open(TestRedis.config(prefix), "test", 1)) {
            String key = prefix + "string";
            redis.call(c -> c.set(key, "v"));

            RedisCommandException wrong = assertThrows(
                    RedisCommandException.class,
                    () -> redis.eval(
                            RedisScript.of("hget", "return redis.call('HGET', KEYS[1], 'f')"),
                            List.of(key),
                            List.of()));
            assertEquals(RedisFailure.WRONG_TYPE, wrong.failure(), wrong.getMessage());
            assertTrue(
                    wrong.getMessage().startsWith("Redis at 127.0.0.1:6379 rejected a test command (wrong-type): "),
                    wrong.getMessage());

            RedisCommandException direct =
                    assertThrows(RedisCommandException.class, () -> redis.call(c -> c.hget(key, "f")));
            assertEquals(RedisFailure.WRONG_TYPE, direct.failure());

            RedisCommandException boom = assertThrows(
                    RedisCommandException.class,
                    () -> redis.eval(RedisScript.of("boom", "error('boom')"), List.of(), List.of()));
            assertEquals(RedisFailure.SCRIPT_ERROR, boom.failure(), boom.getMessage());

            RedisCommandException stale = assertThrows(
                    RedisCommandException.class,
                    () -> redis.eval(
                            RedisScript.of("stale", "return redis.error_reply('STALE 7 9')"), List.of(), List.of()));
            assertEquals(RedisFailure.REJECTED, stale.failure());
            assertTrue(stale.reply().startsWith("STALE 7 9"), stale.reply());
            assertFalse(stale.failure().unavailable());
        }
    }

    @Test
    void aReadOnlyReplicaIsUnavailable() {
        try (PrivateRedisServer server = PrivateRedisServer.start();
                RedisAccess redis = RedisAccess.open(at(server.port()), "test", 1);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            assertEquals("OK", redis.call(c -> c.set("k", "v")));
            // a replica of a primary that does not exist: reads served, writes refused
            admin.sendCommand(Protocol.Command.REPLICAOF, "127.0.0.1", Integer.toString(PrivateRedisServer.freePort()));
            RedisUnavailableException e =
                    assertThrows(RedisUnavailableException.class, () -> redis.call(c -> c.set("k", "w")));
            assertEquals(RedisFailure.READONLY, e.failure(), e.getMessage());
            assertEquals("v", redis.call(c -> c.get("k")));
        }
    }

    @Test
    void aBusyScriptMakesRedisUnavailableUntilKilled() throws Exception {
        try (PrivateRedisServer server = PrivateRedisServer.start();
                RedisAccess redis = RedisAccess.open(
                        RedisStoreConfig.fromUri("redis://127.0.0.1:" + server.port())
                                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(10)),
                        "test",
                        2);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .clientConfig(DefaultJedisClientConfig.builder()
                                .socketTimeoutMillis(30_000)
                                .build())
                        .build()) {
            admin.configSet("busy-reply-threshold", "50");
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            CompletableFuture<Object> spin = CompletableFuture.supplyAsync(() -> {
                try {
                    return admin.eval("local t = redis.call('TIME') while true do end");
                } catch (RuntimeException e) {
                    return e; // killed
                }
            });
            RedisUnavailableException busy;
            try {
                busy = Await.atMost(DEADLINE)
                        .until(
                                "a call to fail while the script spins",
                                () -> {
                                    try {
                                        redis.call(c -> c.get("k"));
                                        return null; // the spin script has not started yet
                                    } catch (RedisUnavailableException e) {
                                        return e;
                                    }
                                },
                                Objects::nonNull);
            } finally {
                try (RedisClient killer = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
                    awaitTrue(
                            () -> {
                                try {
                                    killer.scriptKill();
                                    return true;
                                } catch (RuntimeException e) {
                                    return false; // not running yet
                                }
                            },
                            deadline);
                }
            }
            spin.get(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(RedisFailure.BUSY, busy.failure(), busy.getMessage());
            awaitTrue(
                    () -> {
                        try {
                            return redis.call(c -> c.get("k")) == null;
                        } catch (RedisUnavailableException e) {
                            return false;
                        }
                    },
                    deadline);
        }
    }

    /**
     * Issue 37: {@code CLUSTERDOWN} during a promotion came out as a rejected command (a 500 from
     * the API); it is an outage, the command did not run, and a retry after the promotion works.
     */
    @Test
    void aClusterDownReplyIsAnOutageNotARejection() {
        try (RedisAccess redis = RedisAccess.open(TestRedis.config(TestRedis.randomPrefix()), "store", 1)) {
            for (String reply : List.of("CLUSTERDOWN The cluster is down", "CLUSTERDOWN Hash slot not served")) {
                RuntimeException e = redis.failure(new JedisClusterException(reply));
                RedisUnavailableException u =
                        assertInstanceOf(RedisUnavailableException.class, e, "an outage: " + e.getMessage());
                assertEquals(RedisFailure.CLUSTER_DOWN, u.failure(), u.getMessage());
            }
            for (String reply : List.of(
                    "TRYAGAIN Multiple keys request during rehashing",
                    "LOADING Redis is loading the dataset in memory",
                    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.")) {
                assertInstanceOf(RedisUnavailableException.class, redis.failure(new JedisDataException(reply)), reply);
            }
            // a dead master during the promotion: connection refused
            assertInstanceOf(
                    RedisUnavailableException.class,
                    redis.failure(new JedisConnectionException("Failed to connect to 127.0.0.1:7147.")));
        }
    }

    /**
     * What an extraction's default WAIT follows: the replicas online now. A replica still in its
     * initial sync cannot acknowledge, a promoted replica without one has none, and a node that is
     * a replica itself is no master (the slot map is stale).
     */
    @Test
    void onlineReplicasCountOnlyLinksThatCanAcknowledge() {
        assertEquals(
                1,
                OnlineReplicas.online("# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
                        + "slave0:ip=127.0.0.1,port=7101,state=online,offset=42,lag=0\r\n"
                        + "slave1:ip=127.0.0.1,port=7102,state=wait_bgsave,offset=0,lag=0\r\n"
                        + "master_failover_state:no-failover\r\n"));
        assertEquals(
                0,
                OnlineReplicas.online("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n"
                        + "master_failover_state:no-failover\r\nmaster_replid:abc\r\n"));
        assertEquals(
                OnlineReplicas.NOT_A_MASTER,
                OnlineReplicas.online("# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\n"
                        + "master_link_status:up\r\nslave_read_repl_offset:42\r\nslave_priority:100\r\n"));
    }

    @Test
    void errorRepliesAreClassifiedByCode() {
        assertEquals(RedisFailure.BUSY, RedisFailure.ofReply("LOADING Redis is loading the dataset in memory"));
        assertEquals(RedisFailure.BUSY, RedisFailure.ofReply("MASTERDOWN Link with MASTER is down"));
        assertEquals(RedisFailure.BUSY, RedisFailure.ofReply("TRYAGAIN Multiple keys request during rehashing"));
        assertEquals(RedisFailure.BUSY, RedisFailure.ofReply("NOREPLICAS Not enough good replicas to write."));
        assertEquals(RedisFailure.CLUSTER_DOWN, RedisFailure.ofReply("CLUSTERDOWN The cluster is down"));
        assertEquals(RedisFailure.CLUSTER_DOWN, RedisFailure.ofReply("CLUSTERDOWN Hash slot not served"));
        assertEquals(
                RedisFailure.OUT_OF_MEMORY,
                RedisFailure.ofReply("OOM command not allowed when used memory > 'maxmemory'."));
        assertEquals(
                RedisFailure.READONLY, RedisFailure.ofReply("READONLY You can't write against a read only replica."));
        assertEquals(RedisFailure.NOSCRIPT, RedisFailure.ofReply("NOSCRIPT No matching script."));
        assertEquals(RedisFailure.AUTH, RedisFailure.ofReply("WRONGPASS invalid username-password pair"));
        assertEquals(RedisFailure.REJECTED, RedisFailure.ofReply("ERR unknown command 'FOO'"));
        assertEquals(RedisFailure.REJECTED, RedisFailure.ofReply(null));
        for (RedisFailure f : RedisFailure.values()) {
            boolean outage = switch (f) {
                case UNREACHABLE, TIMEOUT, BUSY, CLUSTER_DOWN, OUT_OF_MEMORY, READONLY, NOSCRIPT -> true;
                case WRONG_TYPE, SCRIPT_ERROR, AUTH, REJECTED -> false;
            };
            assertEquals(outage, f.unavailable(), f.name());
        }
    }

    private static void awaitTrue(BooleanSupplier condition, long deadlineNanos) {
        Duration left = Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()));
        Await.atMost(left).until("the condition before the test's deadline", condition);
    }
}
