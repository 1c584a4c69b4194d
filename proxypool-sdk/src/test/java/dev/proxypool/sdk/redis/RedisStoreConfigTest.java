package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code store.uri}, {@code store.keyPrefix} and the timeouts: parsing, defaults, messages naming the key. */
class RedisStoreConfigTest {

    @Test
    void defaultsMatchTheSpec() {
        RedisStoreConfig d = RedisStoreConfig.DEFAULTS;
        assertAll(
                () -> assertEquals("127.0.0.1", d.host()),
                () -> assertEquals(6379, d.port()),
                () -> assertEquals("pp:", d.keyPrefix()),
                () -> assertEquals(Duration.ofSeconds(2), d.connectTimeout()),
                () -> assertEquals(Duration.ofSeconds(2), d.socketTimeout()));
    }

    @Test
    void urisAreParsed() {
        record Row(String uri, String host, int port, String user, String password, int db) {}
        for (Row row : new Row[] {
            new Row("redis://127.0.0.1:6379", "127.0.0.1", 6379, "", "", 0),
            new Row("redis://cache.internal", "cache.internal", 6379, "", "", 0),
            new Row("redis://:s3cret@10.0.0.5:7000/2", "10.0.0.5", 7000, "", "s3cret", 2),
            new Row("redis://app:p%40ss@h:1", "h", 1, "app", "p@ss", 0)
        }) {
            RedisStoreConfig c = RedisStoreConfig.fromUri(row.uri());
            assertEquals(row, new Row(row.uri(), c.host(), c.port(), c.user(), c.password(), c.database()));
        }
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertAll(
                () -> assertEquals(
                        "store.uri 'http://x:1' must look like redis://host:port",
                        assertThrows(IllegalArgumentException.class, () -> RedisStoreConfig.fromUri("http://x:1"))
                                .getMessage()),
                () -> assertEquals(
                        "store.uri 'redis://h:1/x x' is not a URI",
                        assertThrows(IllegalArgumentException.class, () -> RedisStoreConfig.fromUri("redis://h:1/x x"))
                                .getMessage()),
                () -> assertEquals(
                        "store.uri database 'x' is not a number",
                        assertThrows(IllegalArgumentException.class, () -> RedisStoreConfig.fromUri("redis://h:1/x"))
                                .getMessage()),
                () -> assertEquals(
                        "store.keyPrefix 'a b' must not contain blanks, control characters or braces",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> RedisStoreConfig.DEFAULTS.withKeyPrefix("a b"))
                                .getMessage()),
                () -> assertEquals(
                        "store.keyPrefix '{pp}:' must not contain blanks, control characters or braces",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> RedisStoreConfig.DEFAULTS.withKeyPrefix("{pp}:"))
                                .getMessage()),
                () -> assertEquals(
                        "store.keyPrefix must be 1..64 characters, got ''",
                        assertThrows(IllegalArgumentException.class, () -> RedisStoreConfig.DEFAULTS.withKeyPrefix(""))
                                .getMessage()),
                () -> assertEquals(
                        "RedisStoreConfig.socketTimeout must be a positive duration, got PT0S",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> RedisStoreConfig.DEFAULTS.withTimeouts(
                                                Duration.ofSeconds(1), Duration.ZERO))
                                .getMessage()),
                () -> assertEquals(
                        "RedisStoreConfig.maxConnections must be between 1 and 1024, got 0",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> RedisStoreConfig.DEFAULTS.withMaxConnections(0))
                                .getMessage()));
    }

    @Test
    void thePasswordIsNeverPrinted() {
        RedisStoreConfig c = RedisStoreConfig.fromUri("redis://app:hunter2@h:1");
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertFalse(c.toString().contains("app"), c.toString());
        String message = assertThrows(
                        IllegalArgumentException.class, () -> RedisStoreConfig.fromUri("http://app:hunter2@h:1"))
                .getMessage();
        assertFalse(message.contains("hunter2"), message);
    }
}
