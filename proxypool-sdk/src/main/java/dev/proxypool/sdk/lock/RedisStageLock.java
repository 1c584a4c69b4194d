package dev.proxypool.sdk.lock;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisScript;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.params.SetParams;

/**
 * Stage leases on the shared Redis, so pipelines in different processes agree on one writer. One
 * string key per stage, {@code <keyPrefix>lease:<stage>} = holder id, with a Redis expiry of the
 * ttl (Redis' clock decides lapse, never a caller's):
 * <ul>
 *   <li>acquire: {@code SET key holder NX PX ttl}; when the key exists, a renewal (we may already hold it);</li>
 *   <li>renew / release: small Lua compare-and-set scripts ({@code lock/lease_renew.lua},
 *       {@code lock/lease_release.lua}) so only the holder extends or deletes the key;</li>
 *   <li>current holder: {@code GET key}.</li>
 * </ul>
 * One or two round trips per call. Connections, scripts and errors are {@link RedisAccess}'s: any
 * connectivity failure becomes a {@link StoreUnavailableException} (the caller then stops
 * writing); {@code NOSCRIPT} after a Redis restart is answered by loading the script and retrying
 * once. Thread-safe (pooled client).
 */
public final class RedisStageLock implements StageLock {

    private static final RedisScript RENEW = RedisScript.resource("/lock/lease_renew.lua");
    private static final RedisScript RELEASE = RedisScript.resource("/lock/lease_release.lua");

    private final RedisAccess redis;
    private final String prefix;

    private RedisStageLock(RedisAccess redis, String prefix) {
        this.redis = redis;
        this.prefix = prefix;
    }

    /** Leases under {@code config}'s key prefix on its Redis (the store's own settings). Connects lazily. */
    public static RedisStageLock connect(RedisStoreConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("lease needs a Redis config, got null");
        }
        return new RedisStageLock(
                RedisAccess.open(config, "lease", Math.min(4, config.maxConnections())), config.keyPrefix());
    }

    /**
     * Leases under {@code config}'s key prefix on its Redis Cluster: each lease is one key, so
     * the cluster client routes every call to its slot's master. Reads the topology now.
     *
     * @throws StoreUnavailableException when no seed answers
     */
    public static RedisStageLock connect(RedisClusterConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("lease needs a Redis Cluster config, got null");
        }
        return new RedisStageLock(RedisAccess.openCluster(config, "lease", 4), config.keyPrefix());
    }

    /** The key of {@code stage}'s lease. */
    public String key(String stage) {
        return prefix + "lease:" + LockArguments.stage(stage);
    }

    @Override
    public boolean tryAcquire(String stage, String holderId, Duration ttl) {
        String key = key(stage);
        LockArguments.holder(holderId);
        long ttlMillis = LockArguments.ttlMillis(ttl);
        String ok =
                redis.call(c -> c.set(key, holderId, SetParams.setParams().nx().px(ttlMillis)));
        return ok != null || renewKey(key, holderId, ttlMillis);
    }

    @Override
    public boolean renew(String stage, String holderId, Duration ttl) {
        String key = key(stage);
        LockArguments.holder(holderId);
        return renewKey(key, holderId, LockArguments.ttlMillis(ttl));
    }

    private boolean renewKey(String key, String holderId, long ttlMillis) {
        return one(redis.eval(RENEW, List.of(key), List.of(holderId, Long.toString(ttlMillis))));
    }

    @Override
    public boolean release(String stage, String holderId) {
        String key = key(stage);
        LockArguments.holder(holderId);
        return one(redis.eval(RELEASE, List.of(key), List.of(holderId)));
    }

    @Override
    public Optional<String> currentHolder(String stage) {
        String key = key(stage);
        return Optional.ofNullable(redis.call(c -> c.get(key)));
    }

    private static boolean one(Object reply) {
        return reply instanceof Long n && n == 1L;
    }

    @Override
    public void close() {
        redis.close();
    }

    @Override
    public String toString() {
        return "RedisStageLock[" + redis + " " + prefix + "lease:*]";
    }
}
