package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.StoreSettings;
import java.time.Instant;
import java.util.List;

/**
 * The idempotency records of a Redis pool store (single node or cluster): the scripts
 * {@code idempotency_*.lua} on the keys tagged {@code {<keyPrefix>i}}, one slot of their own, so
 * a replay is exact whichever shard served the request.
 */
final class RedisIdempotency {

    static final RedisScript BEGIN = RedisScript.resource("/redis/idempotency_begin.lua");
    static final RedisScript COMPLETE = RedisScript.resource("/redis/idempotency_complete.lua");
    static final RedisScript ABANDON = RedisScript.resource("/redis/idempotency_abandon.lua");
    static final RedisScript PURGE = RedisScript.resource("/redis/idempotency_purge.lua");

    private final RedisAccess redis;
    private final RedisKeys keys;
    private final StoreSettings settings;

    RedisIdempotency(RedisAccess redis, RedisKeys keys, StoreSettings settings) {
        this.redis = redis;
        this.keys = keys;
        this.settings = settings;
    }

    IdempotencyStart begin(IdempotencyKey key, String fingerprint, Instant now) {
        List<?> r = RedisReplies.list(redis.eval(
                BEGIN,
                keys.idempotency(),
                List.of(
                        RedisKeys.idempotencyRecord(key),
                        requireFingerprint(fingerprint),
                        Long.toString(ProxyCodec.millis(now)),
                        Long.toString(settings.idempotencyInProgressTimeout().toMillis()),
                        Integer.toString(settings.idempotencyMaxEntries()))));
        String answer = RedisReplies.string(r.get(0));
        return switch (answer) {
            case "started" -> IdempotencyStart.STARTED;
            case "progress" -> IdempotencyStart.IN_PROGRESS;
            case "mismatch" -> IdempotencyStart.MISMATCH;
            case "replay" -> new IdempotencyStart.Replay(RedisReplies.string(r.get(1)));
            default -> throw new IllegalStateException("unexpected idempotency answer '" + answer + "'");
        };
    }

    boolean complete(IdempotencyKey key, String fingerprint, String response, Instant now) {
        if (response == null) {
            throw new IllegalArgumentException("idempotent response must not be null");
        }
        return RedisReplies.number(redis.eval(
                        COMPLETE,
                        keys.idempotency(),
                        List.of(
                                RedisKeys.idempotencyRecord(key),
                                requireFingerprint(fingerprint),
                                response,
                                Long.toString(ProxyCodec.millis(now)),
                                Long.toString(settings.idempotencyRetention().toMillis()),
                                Integer.toString(settings.idempotencyMaxEntries()))))
                == 1;
    }

    boolean abandon(IdempotencyKey key, String fingerprint) {
        return RedisReplies.number(redis.eval(
                        ABANDON,
                        keys.idempotencyRecords(),
                        List.of(RedisKeys.idempotencyRecord(key), requireFingerprint(fingerprint))))
                == 1;
    }

    /** Drops up to {@link RedisPoolStore#IDEMPOTENCY_PURGE_WINDOW} dead records. */
    void purge(Instant now) {
        redis.eval(
                PURGE,
                keys.idempotencyRecords(),
                List.of(
                        Long.toString(ProxyCodec.millis(now)),
                        Integer.toString(RedisPoolStore.IDEMPOTENCY_PURGE_WINDOW)));
    }

    private static String requireFingerprint(String fingerprint) {
        if (fingerprint == null || fingerprint.isEmpty()) {
            throw new IllegalArgumentException("idempotency fingerprint must not be empty");
        }
        return fingerprint;
    }
}
