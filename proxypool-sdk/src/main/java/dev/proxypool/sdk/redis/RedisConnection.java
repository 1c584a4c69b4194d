package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.StoreUnavailableException;
import java.util.List;
import java.util.function.Function;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The pooled Jedis client of one store, with the store's error policy in one place: every
 * connectivity failure (refused, reset, timeout, pool exhausted, busy script, out of memory,
 * loading, read-only replica) becomes a {@link StoreUnavailableException}; {@code NOSCRIPT} (scripts lost by a restart, a failover or
 * {@code SCRIPT FLUSH}) is answered by loading the script and retrying once. No other retry: a
 * retried extraction after a lost reply would extract again. Thread-safe (the pool is).
 */
final class RedisConnection implements AutoCloseable {

    private final RedisClient client;
    private final String where;

    RedisConnection(RedisStoreConfig config) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false) // RESP2 without a HELLO round trip
                .connectionTimeoutMillis((int) config.connectTimeout().toMillis())
                .socketTimeoutMillis((int) config.socketTimeout().toMillis())
                .database(config.database())
                .clientName("proxypool-store")
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED); // one handshake round trip less
        if (!config.user().isEmpty()) {
            cc.user(config.user());
        }
        if (!config.password().isEmpty()) {
            cc.password(config.password());
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(config.maxConnections());
        pool.setMaxIdle(config.maxConnections());
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(config.connectTimeout());
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        this.client = RedisClient.builder().hostAndPort(config.host(), config.port())
                .clientConfig(cc.build()).poolConfig(pool).build();
        this.where = config.host() + ":" + config.port();
    }

    /** Runs {@code script} by SHA; on NOSCRIPT loads it and retries once. */
    Object eval(LuaScript script, List<String> keys, List<String> args) {
        return call(c -> {
            try {
                return c.evalsha(script.sha(), keys, args);
            } catch (JedisNoScriptException e) {
                load(c, script);
                return c.evalsha(script.sha(), keys, args);
            }
        });
    }

    /** SCRIPT LOAD of each script (Redis keeps one copy per SHA). */
    void load(List<LuaScript> scripts) {
        call(c -> {
            for (LuaScript s : scripts) {
                load(c, s);
            }
            return null;
        });
    }

    private static void load(RedisClient c, LuaScript s) {
        String sha = c.scriptLoad(s.source());
        if (!s.sha().equals(sha)) {
            throw new IllegalStateException("Redis gave SHA " + sha + " for " + s + ", expected " + s.sha());
        }
    }

    /** Runs one command (or a few) against the pool with the store's error policy. */
    <T> T call(Function<RedisClient, T> command) {
        try {
            return command.apply(client);
        } catch (JedisConnectionException | JedisBusyException e) {
            dropIdleConnections();
            throw unavailable(e);
        } catch (JedisNoScriptException e) {
            throw new StoreUnavailableException("Redis at " + where + " lost the store's scripts twice in a row", e);
        } catch (JedisDataException e) {
            if (isTransient(e.getMessage())) {
                throw unavailable(e);
            }
            throw new IllegalStateException("Redis at " + where + " rejected a store command: " + e.getMessage(), e);
        } catch (JedisException e) { // e.g. no pooled connection free within the wait bound
            throw unavailable(e);
        }
    }

    /**
     * Replies that say Redis cannot serve now rather than that the command is wrong: out of memory
     * (Redis refuses a script at its first memory-growing command only when it has written nothing
     * yet, so a refused script changed nothing), loading, a read-only replica after a failover.
     */
    static boolean isTransient(String message) {
        if (message == null) {
            return false;
        }
        for (String prefix : TRANSIENT_ERRORS) {
            if (message.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static final List<String> TRANSIENT_ERRORS = List.of("OOM ", "LOADING ", "READONLY ", "MASTERDOWN ",
            "TRYAGAIN ", "NOREPLICAS ", "BUSY ");

    private StoreUnavailableException unavailable(Exception e) {
        return new StoreUnavailableException("Redis at " + where + " is unavailable: " + e.getMessage(), e);
    }

    /** After a failure the idle connections are likely dead too (restart): drop them, new ones follow. */
    private void dropIdleConnections() {
        try {
            client.getPool().clear();
        } catch (RuntimeException ignored) {
            // best effort: a dead idle connection fails its next command and is dropped then
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return where;
    }
}
