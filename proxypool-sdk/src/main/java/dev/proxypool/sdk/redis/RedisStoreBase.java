package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.extract.UpstreamCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the two Redis pool stores share and do alike: the connection ({@link RedisAccess}), the
 * idempotency records and the content mark, both kept under one set of keys (the single node's, or
 * the cluster's shard 0), the open/closed state, and the calls that run one script on each shard
 * of the pool and add up the answers (a single node is a pool of one shard): removal, health and
 * check marks, disabling, counts and reading one proxy. Publishing, extraction, listing and the
 * purge (how a call finds its shard, and what a cluster adds) are each store's own.
 */
abstract class RedisStoreBase implements PoolStore {

    static final RedisScript REMOVE = RedisScript.withPrelude("/redis/common.lua", "/redis/remove.lua");
    static final RedisScript MARK_CHECKED = RedisScript.withPrelude("/redis/common.lua", "/redis/mark_checked.lua");
    static final RedisScript MARK_HEALTH = RedisScript.withPrelude("/redis/common.lua", "/redis/mark_health.lua");
    static final RedisScript GET = RedisScript.withPrelude("/redis/common.lua", "/redis/get.lua");
    static final RedisScript SET_DISABLED = RedisScript.withPrelude("/redis/common.lua", "/redis/set_disabled.lua");
    static final RedisScript COUNTS = RedisScript.withPrelude("/redis/common.lua", "/redis/counts.lua");
    /** Ids per remove / markChecked / purge script call. */
    static final int ID_BATCH = 1000;

    /** The connection, closed with the store. */
    final RedisAccess redis;

    private final RedisKeys home;
    /** The keys of each shard of the pool, in shard order (one for a single node). */
    private final List<RedisKeys> pools;

    private final RedisIdempotency idempotency;
    /** Calls of the general extraction script (extract.lua) since the store was opened. */
    private final LongAdder generalCalls = new LongAdder();
    /** Whether this process wrote the content mark; before that nothing can have been lost. */
    private volatile boolean marked;

    private volatile boolean closed;

    /**
     * @param redis    the connection
     * @param pools    the keys of each shard of the pool; the first holds the idempotency records
     *                 and the content mark
     * @param settings the store's settings (idempotency retention)
     */
    RedisStoreBase(RedisAccess redis, List<RedisKeys> pools, StoreSettings settings) {
        this.redis = redis;
        this.pools = List.copyOf(pools);
        this.home = this.pools.get(0);
        this.idempotency = new RedisIdempotency(redis, home, settings);
    }

    @Override
    public final int remove(Collection<String> proxyIds) {
        checkOpen();
        return (int) everyShardInBatches(REMOVE, List.of(), proxyIds);
    }

    @Override
    public final int markChecked(Collection<String> proxyIds, Instant checkedAt) {
        if (checkedAt == null) {
            throw new IllegalArgumentException("checkedAt must not be null");
        }
        checkOpen();
        return (int) everyShardInBatches(
                MARK_CHECKED,
                List.of(
                        Long.toString(ProxyCodec.millis(checkedAt)),
                        Integer.toString(ProxyCodec.subMillisNanos(checkedAt))),
                proxyIds);
    }

    @Override
    public final int markUnhealthy(Collection<String> proxyIds, Instant until) {
        if (until == null) {
            throw new IllegalArgumentException("until must not be null");
        }
        checkOpen();
        return (int) everyShardInBatches(
                MARK_HEALTH, List.of(Long.toString(Math.max(1, ProxyCodec.millis(until)))), proxyIds);
    }

    @Override
    public final int markHealthy(Collection<String> proxyIds) {
        checkOpen();
        return (int) everyShardInBatches(MARK_HEALTH, List.of("0"), proxyIds);
    }

    /**
     * Runs pool {@code script} on every shard over the ids in batches, with ARGV {@code leading...,
     * ids...}; sums the replies (an id counts in its own shard only).
     */
    private long everyShardInBatches(RedisScript script, List<String> leading, Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        long n = 0;
        for (int from = 0; from < all.size(); from += ID_BATCH) {
            List<String> args = new ArrayList<>(leading.size() + ID_BATCH);
            args.addAll(leading);
            args.addAll(all.subList(from, Math.min(all.size(), from + ID_BATCH)));
            for (RedisKeys pool : pools) {
                n += RedisReplies.number(redis.eval(script, pool.pool(), args));
            }
        }
        return n;
    }

    @Override
    public final boolean setDisabled(String proxyId, boolean disabled) {
        checkOpen();
        List<String> args = List.of(proxyId, disabled ? "1" : "0");
        for (RedisKeys pool : pools) {
            if (RedisReplies.number(redis.eval(SET_DISABLED, pool.pool(), args)) == 1) {
                return true;
            }
        }
        return false;
    }

    @Override
    public final int available(String upstream) {
        checkOpen();
        long n = 0;
        for (RedisKeys pool : pools) {
            String v = redis.call(c -> c.hget(pool.counts(), RedisKeys.availableField(upstream)));
            n += v == null ? 0 : Long.parseLong(v);
        }
        return (int) n;
    }

    @Override
    public final Map<String, UpstreamCounts> countsByUpstream() {
        checkOpen();
        TreeMap<String, int[]> sums = new TreeMap<>();
        for (RedisKeys pool : pools) {
            List<?> r = RedisReplies.list(redis.eval(COUNTS, pool.pool(), List.of()));
            for (int i = 0; i + 2 < r.size(); i += 3) {
                int[] c = sums.computeIfAbsent(RedisReplies.string(r.get(i)), u -> new int[2]);
                c[0] += (int) RedisReplies.number(r.get(i + 1));
                c[1] += (int) RedisReplies.number(r.get(i + 2));
            }
        }
        TreeMap<String, UpstreamCounts> counts = new TreeMap<>();
        sums.forEach((u, c) -> counts.put(u, new UpstreamCounts(c[0], c[1])));
        return counts;
    }

    @Override
    public final Optional<StoredProxy> get(String proxyId) {
        checkOpen();
        for (RedisKeys pool : pools) {
            List<?> v = RedisReplies.list(redis.eval(GET, pool.pool(), List.of(proxyId)));
            if (!v.isEmpty()) {
                return Optional.of(stored(v));
            }
        }
        return Optional.empty();
    }

    /**
     * Calls of the general extraction script ({@code extract.lua}) since the store was opened: the
     * extractions no index set answered (a label outside {@code store.index.dimensions}, an upstream
     * beside labels whose candidates missed, {@code maxHealthAge}, a shortfall to prove, a gateway
     * reserve near its bound), and on Redis Cluster each shard's count and reservation of an
     * allOrNothing across shards. Rising with the extractions, it says which filters to index.
     *
     * @return the calls so far
     */
    public final long generalExtractionCalls() {
        return generalCalls.sum();
    }

    /** Counts one call of the general extraction script, made next. */
    final void countGeneralCall() {
        generalCalls.increment();
    }

    /** A stored proxy of a get.lua or list.lua reply: {r, state, checked ms, checked ns}. */
    static StoredProxy stored(List<?> v) {
        return ProxyCodec.stored(
                RedisReplies.string(v.get(0)),
                RedisReplies.string(v.get(1)),
                RedisReplies.string(v.get(2)),
                RedisReplies.string(v.get(3)));
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
