package dev.proxypool.sdk.cluster;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.util.List;
import java.util.function.Function;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The cluster's Redis access: a small pool for commands and, for a subscriber, dedicated
 * connections for pub/sub. Every connectivity failure becomes a {@link StoreUnavailableException}
 * within the store's connect and socket timeouts; {@code NOSCRIPT} (scripts lost by a restart or a
 * failover) is answered by loading the script and retrying once. Thread-safe.
 */
final class ClusterRedis implements AutoCloseable {

    private final RedisClient client;
    private final JedisClientConfig subscriberConfig;
    private final HostAndPort where;
    final ClusterKeys keys;

    ClusterRedis(RedisStoreConfig config, String clientName, int connections) {
        this.where = new HostAndPort(config.host(), config.port());
        this.client = RedisClient.builder().hostAndPort(config.host(), config.port())
                .clientConfig(clientConfig(config, clientName, (int) config.socketTimeout().toMillis()))
                .poolConfig(pool(config, connections)).build();
        this.subscriberConfig = clientConfig(config, clientName + "-sub", (int) config.socketTimeout().toMillis());
        this.keys = new ClusterKeys(config.keyPrefix());
    }

    private static JedisClientConfig clientConfig(RedisStoreConfig config, String name, int socketTimeoutMillis) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false)
                .connectionTimeoutMillis((int) config.connectTimeout().toMillis())
                .socketTimeoutMillis(socketTimeoutMillis)
                .database(config.database())
                .clientName(name)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        if (!config.user().isEmpty()) {
            cc.user(config.user());
        }
        if (!config.password().isEmpty()) {
            cc.password(config.password());
        }
        return cc.build();
    }

    private static ConnectionPoolConfig pool(RedisStoreConfig config, int connections) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(connections);
        pool.setMaxIdle(connections);
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(config.connectTimeout());
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    /** A new connection for SUBSCRIBE (Jedis switches it to no read timeout while subscribed). */
    Jedis subscriberConnection() {
        try {
            Jedis j = new Jedis(where, subscriberConfig);
            j.getConnection().connect();
            return j;
        } catch (JedisException e) {
            throw unavailable(e);
        }
    }

    /** Runs {@code script} by SHA with binary keys and arguments; on NOSCRIPT loads it and retries once. */
    Object eval(ClusterScript script, List<byte[]> keys, List<byte[]> args) {
        byte[] sha = ClusterKeys.bytes(script.sha());
        return call(c -> {
            try {
                return c.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                String loaded = c.scriptLoad(script.source());
                if (!script.sha().equals(loaded)) {
                    throw new IllegalStateException("Redis gave SHA " + loaded + " for " + script);
                }
                return c.evalsha(sha, keys, args);
            }
        });
    }

    /** Runs commands against the pool; connectivity failures become {@link StoreUnavailableException}. */
    <T> T call(Function<RedisClient, T> command) {
        try {
            return command.apply(client);
        } catch (JedisConnectionException e) {
            dropIdle();
            throw unavailable(e);
        } catch (JedisNoScriptException e) {
            throw new StoreUnavailableException("Redis at " + where + " lost the cluster scripts twice in a row", e);
        } catch (JedisDataException e) {
            String m = e.getMessage() == null ? "" : e.getMessage();
            if (m.startsWith("LOADING") || m.startsWith("BUSY") || m.startsWith("READONLY") || m.startsWith("OOM")
                    || m.startsWith("MASTERDOWN") || m.startsWith("TRYAGAIN")) {
                throw unavailable(e);
            }
            throw e;
        } catch (JedisException e) {
            throw unavailable(e);
        }
    }

    private void dropIdle() {
        try {
            client.getPool().clear();
        } catch (RuntimeException ignored) {
            // best effort: a dead idle connection fails its next command and is dropped then
        }
    }

    StoreUnavailableException unavailable(Exception e) {
        return new StoreUnavailableException("Redis at " + where + " is unavailable: " + e.getMessage(), e);
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return where.toString();
    }
}
