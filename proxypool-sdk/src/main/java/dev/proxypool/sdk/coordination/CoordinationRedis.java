package dev.proxypool.sdk.coordination;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.lock.RedisStageLock;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisStoreConfig;

/**
 * Where snapshot distribution, the worker registry and the control-plane lease keep their keys:
 * the store's single Redis ({@code store.type: redis}, {@link #of(RedisStoreConfig)}) or its Redis
 * Cluster ({@code store.type: redis-cluster}, {@link #of(RedisClusterConfig)}). It opens the
 * {@link RedisAccess} of each user (a pooled single-node client, or the Jedis cluster client that
 * routes every command and script by its first key's slot) and names the keys ({@link CoordinationKeys}:
 * hash-tagged on a cluster, so every script's keys share one slot). Immutable.
 */
public final class CoordinationRedis {

    private final RedisStoreConfig single;
    private final RedisClusterConfig cluster;

    private CoordinationRedis(RedisStoreConfig single, RedisClusterConfig cluster) {
        this.single = single;
        this.cluster = cluster;
    }

    /** The keys on one Redis node, named {@code <prefix>snapshot:full} etc. */
    public static CoordinationRedis of(RedisStoreConfig redis) {
        if (redis == null) {
            throw new IllegalArgumentException("cluster keys need a Redis config, got null");
        }
        return new CoordinationRedis(redis, null);
    }

    /** The keys on a Redis Cluster, named {@code {<prefix>cluster}:snapshot:full} etc. (one slot). */
    public static CoordinationRedis of(RedisClusterConfig redis) {
        if (redis == null) {
            throw new IllegalArgumentException("cluster keys need a Redis Cluster config, got null");
        }
        return new CoordinationRedis(null, redis);
    }

    /**
     * The keys of the configured shared store: {@code store.type: redis} ({@code store.uri},
     * {@code store.keyPrefix}) or {@code redis-cluster} ({@code store.nodes}, {@code store.keyPrefix}).
     *
     * @throws IllegalArgumentException for {@code store.type: memory} (nothing is shared)
     */
    public static CoordinationRedis fromStore(ProxyPoolConfig.Store store) {
        return switch (store.type()) {
            case REDIS -> of(RedisStoreConfig.fromUri(store.uri()).withKeyPrefix(store.keyPrefix()));
            case REDIS_CLUSTER ->
                of(RedisClusterConfig.of(store.nodes())
                        .withKeyPrefix(store.keyPrefix())
                        .withWait(store.waitReplicas(), store.waitTimeout()));
            case MEMORY ->
                throw new IllegalArgumentException(
                        "snapshot distribution needs the shared store (store.type redis or redis-cluster)");
        };
    }

    /** True on a Redis Cluster. */
    public boolean isCluster() {
        return cluster != null;
    }

    /** The store's key prefix. */
    public String keyPrefix() {
        return cluster != null ? cluster.keyPrefix() : single.keyPrefix();
    }

    /** The name of the full snapshot hash (for operators and tests). */
    public String fullSnapshotKey() {
        return keys().full();
    }

    /** The name of the control-plane lease key (for operators and tests). */
    public String leaseKey() {
        return keys().lease();
    }

    /** Pipeline stage leases ({@code <prefix>lease:<stage>}) on the same Redis or Redis Cluster. */
    public RedisStageLock stageLease() {
        return cluster != null ? RedisStageLock.connect(cluster) : RedisStageLock.connect(single);
    }

    CoordinationKeys keys() {
        return new CoordinationKeys(keyPrefix(), cluster != null);
    }

    /**
     * A new access for {@code purpose} with up to {@code maxConnections} pooled connections (per
     * node on a cluster). Single node: connects lazily. Cluster: reads the topology now.
     *
     * @throws dev.proxypool.core.extract.StoreUnavailableException when no cluster seed answers
     */
    RedisAccess open(String purpose, int maxConnections) {
        return cluster != null
                ? RedisAccess.openCluster(cluster, purpose, maxConnections)
                : RedisAccess.open(single, purpose, maxConnections);
    }

    @Override
    public String toString() {
        return "CoordinationRedis[" + (cluster != null ? cluster : single) + "]";
    }
}
