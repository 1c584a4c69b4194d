package dev.proxypool.sdk.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The one Redis access layer of the SDK: the pool store ({@link RedisPoolStore}), snapshot
 * distribution and the worker registry ({@code sdk.cluster}) and stage leases
 * ({@code sdk.lock.RedisStageLease}) each hold one of these and nothing else of Jedis' set-up.
 * It owns:
 * <ul>
 *   <li><b>the pooled client</b> and its configuration from {@link RedisStoreConfig}: host, port,
 *       database, credentials, connect and socket timeouts (a pooled connection is waited for at
 *       most the connect timeout), RESP2 without a {@code HELLO} or {@code CLIENT SETINFO} round
 *       trip, and a client name per user ({@code proxypool-<purpose>});</li>
 *   <li><b>scripts</b> ({@link RedisScript}): {@link #eval} runs {@code EVALSHA} with the caller's
 *       {@code KEYS} and {@code ARGV}; on {@code NOSCRIPT} (scripts lost by a restart, a failover
 *       or {@code SCRIPT FLUSH}) it loads the script and retries once, on the same connection.
 *       {@link #load} preloads scripts at start. No other retry: a retried extraction after a lost
 *       reply would extract again;</li>
 *   <li><b>the error classification</b> ({@link RedisFailure}): every failure of a command becomes
 *       a {@link RedisUnavailableException} (a {@code StoreUnavailableException}: unreachable,
 *       timeout, busy, loading, out of memory, read-only replica, scripts lost twice) or a
 *       {@link RedisCommandException} (wrong type, script error, auth, any other rejection). After
 *       a connection-level failure the idle pooled connections are dropped (likely dead too).</li>
 * </ul>
 *
 * <p><b>Variants.</b> The access object works on a Jedis {@link UnifiedJedis}, the client type
 * Jedis shares between a single Redis ({@link RedisClient}) and Redis Cluster; scripts get every
 * key in {@code KEYS}, so a cluster-backed variant is another factory beside {@link #open} (a
 * cluster client, its own idle-connection reset and pub/sub node), not another error table.
 *
 * <p>Thread-safe (the pool is). {@link #dedicatedConnection()} connections are the caller's to close.
 */
public final class RedisAccess implements AutoCloseable {

    private final UnifiedJedis client;
    private final Runnable dropIdle;
    private final HostAndPort where;
    private final JedisClientConfig dedicatedConfig;
    private final String purpose;

    private RedisAccess(
            UnifiedJedis client,
            Runnable dropIdle,
            HostAndPort where,
            JedisClientConfig dedicatedConfig,
            String purpose) {
        this.client = client;
        this.dropIdle = dropIdle;
        this.where = where;
        this.dedicatedConfig = dedicatedConfig;
        this.purpose = purpose;
    }

    /**
     * A pooled client of the single Redis in {@code config}. Connects lazily: the first command
     * opens the first connection.
     *
     * @param purpose        what the connections serve, e.g. {@code store} or {@code lease}: the
     *                       client name is {@code proxypool-<purpose>}, and messages name it
     * @param maxConnections most pooled connections (at least 1)
     */
    public static RedisAccess open(RedisStoreConfig config, String purpose, int maxConnections) {
        if (config == null) {
            throw new IllegalArgumentException("redis access needs a Redis config, got null");
        }
        if (purpose == null || !purpose.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException(
                    "redis access purpose '" + purpose + "' must be lower-case letters, digits, '-'");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("redis access maxConnections must be at least 1, got " + maxConnections);
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnections);
        pool.setMaxIdle(maxConnections);
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(config.connectTimeout());
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        RedisClient client = RedisClient.builder()
                .hostAndPort(config.host(), config.port())
                .clientConfig(clientConfig(config, "proxypool-" + purpose))
                .poolConfig(pool)
                .build();
        Runnable dropIdle = () -> client.getPool().clear();
        return new RedisAccess(
                client,
                dropIdle,
                new HostAndPort(config.host(), config.port()),
                clientConfig(config, "proxypool-" + purpose + "-sub"),
                purpose);
    }

    private static JedisClientConfig clientConfig(RedisStoreConfig config, String clientName) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false) // RESP2 without a HELLO round trip
                .connectionTimeoutMillis((int) config.connectTimeout().toMillis())
                .socketTimeoutMillis((int) config.socketTimeout().toMillis())
                .database(config.database())
                .clientName(clientName)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED); // one handshake round trip less
        if (!config.user().isEmpty()) {
            cc.user(config.user());
        }
        if (!config.password().isEmpty()) {
            cc.password(config.password());
        }
        return cc.build();
    }

    /**
     * Runs {@code script} by SHA with {@code keys} as {@code KEYS} and {@code args} as
     * {@code ARGV}; on {@code NOSCRIPT} loads it and retries once. One round trip while Redis has
     * the script.
     *
     * @throws RedisUnavailableException when Redis cannot serve now
     * @throws RedisCommandException     when Redis or the script refused the call
     */
    public Object eval(RedisScript script, List<String> keys, List<String> args) {
        return call(c -> {
            try {
                return c.evalsha(script.sha(), keys, args);
            } catch (JedisNoScriptException e) {
                load(c, script);
                return retried(script, () -> c.evalsha(script.sha(), keys, args));
            }
        });
    }

    /** {@link #eval} with binary keys and arguments (frames, digests). */
    public Object evalBinary(RedisScript script, List<byte[]> keys, List<byte[]> args) {
        byte[] sha = script.sha().getBytes(StandardCharsets.US_ASCII);
        return call(c -> {
            try {
                return c.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                load(c, script);
                return retried(script, () -> c.evalsha(sha, keys, args));
            }
        });
    }

    private Object retried(RedisScript script, Supplier<Object> evalsha) {
        try {
            return evalsha.get();
        } catch (JedisNoScriptException e) {
            throw new RedisUnavailableException(
                    RedisFailure.NOSCRIPT,
                    "Redis at " + where + " is unavailable (noscript): lost script " + script
                            + " again right after loading it",
                    e);
        }
    }

    /** {@code SCRIPT LOAD} of each script (Redis keeps one copy per SHA), e.g. at start. */
    public void load(List<RedisScript> scripts) {
        call(c -> {
            for (RedisScript s : scripts) {
                load(c, s);
            }
            return null;
        });
    }

    private void load(UnifiedJedis c, RedisScript s) {
        String sha = c.scriptLoad(s.source());
        if (!s.sha().equals(sha)) {
            throw new IllegalStateException(
                    "Redis at " + where + " gave SHA " + sha + " for " + s + ", expected " + s.sha());
        }
    }

    /**
     * Runs one command (or a few) on the pooled client with the shared error classification.
     *
     * @throws RedisUnavailableException when Redis cannot serve now
     * @throws RedisCommandException     when Redis refused the command
     */
    public <T> T call(Function<UnifiedJedis, T> command) {
        try {
            return command.apply(client);
        } catch (JedisException e) {
            throw failure(e);
        }
    }

    /**
     * The classified exception for a Jedis failure (for commands run outside {@link #call}, such
     * as on a {@link #dedicatedConnection()}); exceptions already classified pass unchanged.
     */
    public RuntimeException failure(RuntimeException e) {
        if (!(e instanceof JedisException je)) {
            return e;
        }
        RedisFailure kind = RedisFailure.of(je);
        if (kind == RedisFailure.UNREACHABLE || kind == RedisFailure.TIMEOUT) {
            dropIdleConnections();
        }
        if (kind.unavailable()) {
            return new RedisUnavailableException(
                    kind, "Redis at " + where + " is unavailable (" + kind + "): " + e.getMessage(), e);
        }
        return new RedisCommandException(
                kind,
                "Redis at " + where + " rejected a " + purpose + " command (" + kind + "): " + e.getMessage(),
                e.getMessage(),
                e);
    }

    /**
     * A new connection of its own, outside the pool, for {@code SUBSCRIBE} (Jedis lifts the read
     * timeout while subscribed). The caller closes it.
     *
     * @throws RedisUnavailableException when it cannot connect
     */
    public Jedis dedicatedConnection() {
        try {
            Jedis j = new Jedis(where, dedicatedConfig);
            j.getConnection().connect();
            return j;
        } catch (JedisException e) {
            throw failure(e);
        }
    }

    /** After a failure the idle connections are likely dead too (restart): drop them, new ones follow. */
    private void dropIdleConnections() {
        try {
            dropIdle.run();
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
        return where.toString();
    }
}
