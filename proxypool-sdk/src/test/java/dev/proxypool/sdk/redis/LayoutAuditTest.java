package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * {@link LayoutAudit}, which the Redis store tests run after their steps, finds what a half-done
 * script would leave: each corruption below, made by hand in a consistent pool, is reported, and
 * nothing is reported before it. Real redis-server (private).
 */
@Tag("slow")
class LayoutAuditTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void anAvailableProxyMissingFromTheAvailableSet() {
        assertFound("available set", (c, t) -> c.srem(t + "a", id(5)));
    }

    @Test
    void aStrayIndexMember() {
        assertFound("index members", (c, t) -> c.zadd(t + "i", 0, "7:u:stray|" + id(5)));
    }

    @Test
    void aProxyMissingFromTheSetOfOneOfItsTerms() {
        assertFound("is missing from the set of", (c, t) -> c.srem(t + "e:14:l:7:country=DE", id(5)));
    }

    @Test
    void aSetMemberThatIsNoMember() {
        assertFound("without being a member", (c, t) -> c.sadd(t + "e:14:l:7:country=DE", id(4)));
    }

    @Test
    void aStoredProxyTombstoned() {
        assertFound("is stored and tombstoned", (c, t) -> {
            String key = LayoutAudit.items(c.hget(t + "r", id(5))).get(0);
            c.zadd(t + "t", NOW.plus(Duration.ofHours(1)).toEpochMilli(), key);
        });
    }

    @Test
    void aWrongExpiryEntry() {
        assertFound("wrong expiry entries", (c, t) -> c.zadd(t + "xa", 1, id(5)));
    }

    @Test
    void aCounterOffByOne() {
        assertFound(
                "counters",
                (c, t) -> c.hincrBy(t + "n", "a:" + FourCountries.proxy(5, NOW).upstream(), 1));
    }

    @Test
    void aKeyHolderLost() {
        assertFound("does not hold its key", (c, t) -> {
            String key = LayoutAudit.items(c.hget(t + "r", id(5))).get(0);
            c.hset(t + "k", key, id(6));
        });
    }

    @Test
    void aFastItemWhoseRecordIsAnotherProxys() {
        assertFound("the record in its fast item", (c, t) -> {
            byte[] fast = (t + "f").getBytes(StandardCharsets.UTF_8);
            // a MessagePack value: copied as bytes
            c.hset(fast, id(5).getBytes(StandardCharsets.UTF_8), c.hget(fast, id(6).getBytes(StandardCharsets.UTF_8)));
        });
    }

    @Test
    void aRetiredProxyStillAvailable() {
        assertFound("is retired and still available", (c, t) -> c.hset(t + "g", id(5), "1"));
    }

    /** A fresh pool of 16 proxies, consistent; then {@code corrupt} (client, pool tag) and one problem naming {@code what}. */
    private static void assertFound(String what, BiConsumer<RedisClient, String> corrupt) {
        String prefix = "ppaudit" + Math.abs(what.hashCode()) + ":";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            List<Proxy> pool = FourCountries.proxies(0, 16, NOW);
            assertEquals(16, store.upsert(pool, NOW).added());
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "consistent before");
            corrupt.accept(c, new RedisKeys(prefix).poolTag());
            List<String> problems = LayoutAudit.problems("127.0.0.1", server.port(), prefix);
            assertTrue(problems.stream().anyMatch(p -> p.contains(what)), what + " not reported: " + problems);
        }
    }

    private static String id(int n) {
        return FourCountries.proxy(n, NOW).id();
    }
}
