package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreSettings;
import java.time.Instant;

/**
 * What the two Redis pool stores share and do alike: the connection ({@link RedisAccess}), the
 * idempotency records and the content mark, both kept under one set of keys (the single node's, or
 * the cluster's shard 0), and the open/closed state. The pool itself (its keys, scripts and how an
 * extraction finds a shard) is each store's own.
 */
abstract class RedisStoreBase implements PoolStore {

    /** The connection, closed with the store. */
    final RedisAccess redis;

    private final RedisKeys home;
    private final RedisIdempotency idempotency;
    /** Whether this process wrote the content mark; before that nothing can have been lost. */
    private volatile boolean marked;

    private volatile boolean closed;

    /**
     * @param redis    the connection
     * @param home     the keys holding the idempotency records and the content mark
     * @param settings the store's settings (idempotency retention)
     */
    RedisStoreBase(RedisAccess redis, RedisKeys home, StoreSettings settings) {
        this.redis = redis;
        this.home = home;
        this.idempotency = new RedisIdempotency(redis, home, settings);
    }

    @Override
    public final IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now) {
        checkOpen();
        return idempotency.begin(key, fingerprint, now);
    }

    @Override
    public final boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now) {
        checkOpen();
        return idempotency.complete(key, fingerprint, response, now);
    }

    @Override
    public final boolean abandonIdempotent(IdempotencyKey key, String fingerprint) {
        checkOpen();
        return idempotency.abandon(key, fingerprint);
    }

    /** The idempotency records, for the purge. */
    final RedisIdempotency idempotency() {
        return idempotency;
    }

    @Override
    public final void markContent() {
        checkOpen();
        redis.call(c -> c.set(home.contentMark(), "1"));
        marked = true;
    }

    @Override
    public final boolean lostContent() {
        checkOpen();
        return marked && !redis.call(c -> c.exists(home.contentMark()));
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            redis.close();
        }
    }

    /**
     * @throws IllegalStateException when the store is closed
     */
    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("pool store is closed");
        }
    }
}
