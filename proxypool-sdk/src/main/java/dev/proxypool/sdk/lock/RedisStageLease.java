package dev.proxypool.sdk.lock;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
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
 * One or two round trips per call. Errors: any connectivity failure becomes a
 * {@link StoreUnavailableException} (the caller then stops writing); {@code NOSCRIPT} after a
 * Redis restart is answered by loading the script and retrying once. Thread-safe (pooled client).
 */
public final class RedisStageLease implements StageLease {

    private static final String RENEW = read("lease_renew.lua");
    private static final String RELEASE = read("lease_release.lua");

    private final RedisClient client;
    private final String prefix;
    private final String where;
    private volatile String renewSha;
    private volatile String releaseSha;

    private RedisStageLease(RedisStoreConfig config) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false)
                .connectionTimeoutMillis((int) config.connectTimeout().toMillis())
                .socketTimeoutMillis((int) config.socketTimeout().toMillis())
                .database(config.database())
                .clientName("proxypool-lease")
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        if (!config.user().isEmpty()) {
            cc.user(config.user());
        }
        if (!config.password().isEmpty()) {
            cc.password(config.password());
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        int max = Math.min(4, config.maxConnections());
        pool.setMaxTotal(max);
        pool.setMaxIdle(max);
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(config.connectTimeout());
        pool.setJmxEnabled(false);
        this.client = RedisClient.builder().hostAndPort(config.host(), config.port())
                .clientConfig(cc.build()).poolConfig(pool).build();
        this.prefix = config.keyPrefix();
        this.where = config.host() + ":" + config.port();
    }

    /** Leases under {@code config}'s key prefix on its Redis (the store's own settings). Connects lazily. */
    public static RedisStageLease connect(RedisStoreConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("lease needs a Redis config, got null");
        }
        return new RedisStageLease(config);
    }

    /** The key of {@code stage}'s lease. */
    public String key(String stage) {
        return prefix + "lease:" + LeaseArguments.stage(stage);
    }

    @Override
    public boolean tryAcquire(String stage, String holderId, Duration ttl) {
        String key = key(stage);
        LeaseArguments.holder(holderId);
        long ttlMillis = LeaseArguments.ttlMillis(ttl);
        String ok = call(c -> c.set(key, holderId, SetParams.setParams().nx().px(ttlMillis)));
        return ok != null || renewKey(key, holderId, ttlMillis);
    }

    @Override
    public boolean renew(String stage, String holderId, Duration ttl) {
        String key = key(stage);
        LeaseArguments.holder(holderId);
        return renewKey(key, holderId, LeaseArguments.ttlMillis(ttl));
    }

    private boolean renewKey(String key, String holderId, long ttlMillis) {
        return one(eval(RENEW, true, key, List.of(holderId, Long.toString(ttlMillis))));
    }

    @Override
    public boolean release(String stage, String holderId) {
        String key = key(stage);
        LeaseArguments.holder(holderId);
        return one(eval(RELEASE, false, key, List.of(holderId)));
    }

    @Override
    public Optional<String> currentHolder(String stage) {
        String key = key(stage);
        return Optional.ofNullable(call(c -> c.get(key)));
    }

    private static boolean one(Object reply) {
        return reply instanceof Long n && n == 1L;
    }

    /** EVALSHA of a lease script; loads it on first use and again after NOSCRIPT (a restart). */
    private Object eval(String source, boolean renew, String key, List<String> args) {
        return call(c -> {
            String sha = renew ? renewSha : releaseSha;
            if (sha == null) {
                sha = load(c, source, renew);
            }
            try {
                return c.evalsha(sha, List.of(key), args);
            } catch (JedisNoScriptException e) {
                return c.evalsha(load(c, source, renew), List.of(key), args);
            }
        });
    }

    private String load(RedisClient c, String source, boolean renew) {
        String sha = c.scriptLoad(source);
        if (renew) {
            renewSha = sha;
        } else {
            releaseSha = sha;
        }
        return sha;
    }

    private <T> T call(Function<RedisClient, T> command) {
        try {
            return command.apply(client);
        } catch (JedisDataException e) {
            String m = e.getMessage() == null ? "" : e.getMessage();
            if (m.startsWith("LOADING") || m.startsWith("READONLY") || m.startsWith("BUSY") || m.startsWith("MASTERDOWN")
                    || m.startsWith("OOM") || m.startsWith("TRYAGAIN") || e instanceof JedisNoScriptException) {
                throw unavailable(e);
            }
            throw new IllegalStateException("Redis at " + where + " rejected a lease command: " + m, e);
        } catch (JedisException e) {
            try {
                client.getPool().clear();
            } catch (RuntimeException ignored) {
                // best effort: dead idle connections fail their next command
            }
            throw unavailable(e);
        }
    }

    private StoreUnavailableException unavailable(Exception e) {
        return new StoreUnavailableException("Redis at " + where + " is unavailable for leases: " + e.getMessage(), e);
    }

    private static String read(String file) {
        try (InputStream in = RedisStageLease.class.getResourceAsStream("/lock/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource /lock/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script /lock/" + file, e);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "RedisStageLease[" + where + " " + prefix + "lease:*]";
    }
}
