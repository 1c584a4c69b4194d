package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisClusterConfigTest {

    private static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        RedisClusterConfig ok = RedisClusterConfig.of(List.of("127.0.0.1:7100"));
        assertTrue(refused(() -> RedisClusterConfig.of(List.of())).startsWith("store.nodes"));
        assertTrue(refused(() -> RedisClusterConfig.of(List.of("localhost"))).contains("host:port"));
        assertTrue(refused(() -> RedisClusterConfig.of(List.of("h:99999"))).contains("out of range"));
        assertTrue(refused(() -> RedisClusterConfig.of(List.of("h:x"))).contains("numeric port"));
        assertTrue(refused(() -> ok.withShards(0)).startsWith("store.shards"));
        assertTrue(
                refused(() -> ok.withShards(RedisClusterConfig.MAX_SHARDS + 1)).startsWith("store.shards"));
        assertTrue(refused(() -> ok.withWait(-2, Duration.ofMillis(1))).startsWith("store.waitReplicas"));
        assertTrue(refused(() -> ok.withWait(1, Duration.ZERO)).startsWith("store.waitTimeout"));
        assertTrue(refused(() -> ok.withKeyPrefix("a{b")).startsWith("store.keyPrefix"));
    }

    @Test
    void waitTimeoutMustBeBelowTheSocketTimeoutNamingBoth() {
        RedisClusterConfig ok = RedisClusterConfig.of(List.of("127.0.0.1:7100"));
        String m = refused(() -> ok.withWait(RedisClusterConfig.WAIT_AUTO, Duration.ofSeconds(2)));
        assertTrue(m.startsWith("store.waitTimeout (2000 ms) must be below"), m);
        assertTrue(m.contains("socket timeout (2000 ms)"), m);
        m = refused(() ->
                ok.withWait(1, Duration.ofMillis(800)).withTimeouts(Duration.ofSeconds(1), Duration.ofMillis(500)));
        assertTrue(m.startsWith("store.waitTimeout (800 ms)") && m.contains("socket timeout (500 ms)"), m);
        assertEquals(
                Duration.ofMillis(1999),
                ok.withWait(1, Duration.ofMillis(1999)).waitTimeout(),
                "just below the 2 s socket timeout is accepted");
    }

    @Test
    void defaultsAndPasswordNeverPrinted() {
        RedisClusterConfig c = new RedisClusterConfig(
                List.of(" 127.0.0.1:7100 "),
                "u",
                "s3cret",
                "pp:",
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                16,
                RedisClusterConfig.DEFAULT_SHARDS,
                RedisClusterConfig.WAIT_AUTO,
                RedisClusterConfig.DEFAULT_WAIT_TIMEOUT);
        assertEquals(List.of("127.0.0.1:7100"), c.nodes());
        assertEquals(16, c.shards());
        assertFalse(c.toString().contains("s3cret"), c.toString());
        assertTrue(c.toString().contains("waitReplicas=auto"), c.toString());
    }
}
