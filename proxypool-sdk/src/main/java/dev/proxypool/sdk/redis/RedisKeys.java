package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.model.ProxyKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The key names the Java side reads directly; the full layout, and the names the scripts compute,
 * are documented in {@code redis/common.lua}. Both must agree: the contract tests prove they do.
 */
final class RedisKeys {

    private final String prefix;

    RedisKeys(String prefix) {
        this.prefix = prefix;
    }

    String prefix() {
        return prefix;
    }

    String proxy(String id) {
        return prefix + "p:" + id;
    }

    String availableOf(String upstream) {
        return prefix + "a:u:" + upstream;
    }

    String tombstone(ProxyKey key) {
        return prefix + "t:" + physical(key);
    }

    /** {@code proto/host/port/credRef}: '/' never occurs in a host, protocol or ref name. */
    static String physical(ProxyKey key) {
        return key.protocol().wireName() + "/" + key.host() + "/" + key.port() + "/" + key.credentialRef().name();
    }

    /**
     * One client's idempotency record: the field naming it in the idempotency hashes. The client
     * name is length-prefixed so no two (client, key) pairs collide.
     */
    static String idempotencyRecord(IdempotencyKey key) {
        return key.client().getBytes(StandardCharsets.UTF_8).length + ":" + key.client() + ":" + key.key();
    }

    /** The keys of the idempotency scripts, in their KEYS order (see idempotency_begin.lua). */
    List<String> idempotency() {
        return List.of(prefix + "i:f", prefix + "i:d", prefix + "i:r", prefix + "iz", prefix + "iseq",
                prefix + "i:x");
    }

    /** {@link #idempotency()} without the start sequence counter (abandon and purge). */
    List<String> idempotencyRecords() {
        return List.of(prefix + "i:f", prefix + "i:d", prefix + "i:r", prefix + "iz", prefix + "i:x");
    }
}
