package dev.proxypool.sdk.redis;

import dev.proxypool.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The one Redis access layer of the SDK: the pool store ({@link RedisPoolStore}), snapshot
 * distribution and the worker registry ({@code sdk.coordination}) and stage leases
 * ({@code sdk.lock.RedisStageLock}) each hold one of these and nothing else of Jedis' set-up.
 * It owns:
 * <ul>
 *   <li><b>the pooled client</b> and its configuration from {@link RedisStoreConfig}: host, port,
 *       database, credentials, connect and socket timeouts (a pooled connection is waited for at
 *       most the connect timeout), RESP2 without a {@code HELLO} or {@code CLIENT SETINFO} round
 *       trip, and a client name per user ({@code proxypool-<purpose>});</li>
 *   <li><b>scripts</b> ({@link RedisScript}): {@link #eval} runs {@code EVALSHA} with the caller's
 *       {@code KEYS} and {@code ARGV}; on {@code NOSCRIPT} (scripts lost by a restart, a failover
 *       or {@code SCRIPT FLUSH}) it loads the script and retries once, on the same connection.
 *       {@link #load} preloads scripts at start. Scripts of a {@code RedisLibrary} given to
 *       {@code useLibrary} (the pool stores') run as its Redis Functions ({@code FCALL}); a call that
 *       finds the library missing loads it ({@code FUNCTION LOAD}) and retries once the same way.
 *       No other retry: a retried extraction after a lost reply would extract again;</li>
 *   <li><b>the error classification</b> ({@link RedisFailure}): every failure of a command becomes
 *       a {@link RedisUnavailableException} (a {@code StoreUnavailableException}: unreachable,
 *       timeout, busy, loading, out of memory, read-only replica, scripts lost twice) or a
 *       {@link RedisCommandException} (wrong type, script error, auth, any other rejection). After
 *       a connection-level failure the idle pooled connections are dropped (likely dead too).</li>
 * </ul>
 *
 * <p><b>Variants.</b> The access object works on a Jedis {@link UnifiedJedis}, the client type
 * Jedis shares between a single Redis ({@link RedisClient}, {@link #open}) and Redis Cluster
 * ({@link RedisClusterClient}, {@link #openCluster}): scripts get every key in {@code KEYS}, and
 * Jedis routes each call to the master of its first key's slot (following {@code MOVED} and
 * {@code ASK} itself). On a cluster, {@link #evalDurably} runs a script and then {@code WAIT} on
 * one connection of that master, so the acknowledgement counts exactly that script's writes.
 *
 * <p>Thread-safe (the pool is). {@link #dedicatedConnection()} connections are the caller's to close.
 */
public final class RedisAccess implements AutoCloseable {

    /** Attempts of a durable script while {@code MOVED}/{@code ASK} redirect it (it did not run on those). */
    private static final int MAX_REDIRECTIONS = 3;

    private final UnifiedJedis client;
    private final RedisClusterClient cluster;
    private final Runnable dropIdle;
    private final HostAndPort where;
    private final JedisClientConfig dedicatedConfig;
    private final String purpose;
    private final OnlineReplicas onlineReplicas = new OnlineReplicas(Ticker.system());
    /** Scripts run as Redis Functions ({@link #useLibrary}), or null: every script by {@code EVALSHA}. */
    private volatile RedisLibrary library;

    private RedisAccess(
            UnifiedJedis client,
            Runnable dropIdle,
            HostAndPort where,
            JedisClientConfig dedicatedConfig,
            String purpose) {
        this.client = client;
        this.cluster = client instanceof RedisClusterClient c ? c : null;
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
        checkPurpose(purpose, maxConnections);
        RedisClient client = RedisClient.builder()
                .hostAndPort(config.host(), config.port())
                .clientConfig(clientConfig(config, "proxypool-" + purpose))
                .poolConfig(poolConfig(maxConnections, config.connectTimeout()))
                .build();
        Runnable dropIdle = () -> client.getPool().clear();
        return new RedisAccess(
                client,
                dropIdle,
                new HostAndPort(config.host(), config.port()),
                clientConfig(config, "proxypool-" + purpose + "-sub"),
                purpose);
    }

    /**
     * A cluster client of the Redis Cluster seeded by {@code config.nodes()} (the topology is
     * discovered from the first seed that answers), with up to {@code maxConnections} pooled
     * connections per node. Connects at once (to read the topology).
     *
     * @throws RedisUnavailableException when no seed answers
     */
    public static RedisAccess openCluster(RedisClusterConfig config, String purpose, int maxConnections) {
        if (config == null) {
            throw new IllegalArgumentException("redis access needs a Redis Cluster config, got null");
        }
        checkPurpose(purpose, maxConnections);
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        for (String n : config.nodes()) {
            seeds.add(new HostAndPort(RedisClusterConfig.host(n), RedisClusterConfig.port(n)));
        }
        HostAndPort first = seeds.iterator().next();
        JedisClientConfig cc = clientConfig(
                config.user(),
                config.password(),
                config.connectTimeout(),
                config.socketTimeout(),
                0,
                "proxypool-" + purpose);
        RedisClusterClient client;
        try {
            client = RedisClusterClient.builder()
                    .nodes(seeds)
                    .clientConfig(cc)
                    .poolConfig(poolConfig(maxConnections, config.connectTimeout()))
                    .maxAttempts(3)
                    .maxTotalRetriesDuration(config.socketTimeout().multipliedBy(2))
                    .build();
        } catch (JedisException e) {
            throw new RedisUnavailableException(
                    RedisFailure.of(e), "Redis Cluster at " + config.nodes() + " is unavailable: " + e.getMessage(), e);
        }
        Runnable dropIdle = () -> {
            for (ConnectionPool p : client.getClusterNodes().values()) {
                p.clear();
            }
        };
        return new RedisAccess(
                client,
                dropIdle,
                first,
                clientConfig(
                        config.user(),
                        config.password(),
                        config.connectTimeout(),
                        config.socketTimeout(),
                        0,
                        "proxypool-" + purpose + "-sub"),
                purpose);
    }

    private static void checkPurpose(String purpose, int maxConnections) {
        if (purpose == null || !purpose.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException(
                    "redis access purpose '" + purpose + "' must be lower-case letters, digits, '-'");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("redis access maxConnections must be at least 1, got " + maxConnections);
        }
    }

    private static ConnectionPoolConfig poolConfig(int maxConnections, Duration maxWait) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(maxConnections);
        pool.setMaxIdle(maxConnections);
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(maxWait);
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    private static JedisClientConfig clientConfig(RedisStoreConfig config, String clientName) {
        return clientConfig(
                config.user(),
                config.password(),
                config.connectTimeout(),
                config.socketTimeout(),
                config.database(),
                clientName);
    }

    private static JedisClientConfig clientConfig(
            String user, String password, Duration connect, Duration socket, int database, String clientName) {
        DefaultJedisClientConfig.Builder cc = DefaultJedisClientConfig.builder()
                .autoNegotiateProtocol(false) // RESP2 without a HELLO round trip
                .connectionTimeoutMillis((int) connect.toMillis())
                .socketTimeoutMillis((int) socket.toMillis())
                .database(database)
                .clientName(clientName)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED); // one handshake round trip less
        if (!user.isEmpty()) {
            cc.user(user);
        }
        if (!password.isEmpty()) {
            cc.password(password);
        }
        return cc.build();
    }

    /** True when this accesses a Redis Cluster ({@link #openCluster}). */
    public boolean isCluster() {
        return cluster != null;
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
        RedisLibrary lib = library;
        String function = lib == null ? null : lib.function(script);
        if (function != null) {
            String sampleKey = keys.isEmpty() ? null : keys.get(0);
            return call(c -> {
                try {
                    return c.fcall(function, keys, args);
                } catch (JedisDataException e) {
                    if (!functionMissing(e)) {
                        throw e;
                    }
                    loadLibrary(c, lib, sampleKey);
                    return refcalled(lib, () -> c.fcall(function, keys, args));
                }
            });
        }
        return call(c -> {
            try {
                return c.evalsha(script.sha(), keys, args);
            } catch (JedisNoScriptException e) {
                load(c, script, keys.isEmpty() ? null : keys.get(0));
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
                load(c, script, keys.isEmpty() ? null : new String(keys.get(0), StandardCharsets.UTF_8));
                return retried(script, () -> c.evalsha(sha, keys, args));
            }
        });
    }

    /**
     * Runs the scripts of {@code lib} from now on as its functions ({@code FCALL}) and loads it
     * ({@code FUNCTION LOAD}; on a cluster on every master that answers: replicas get it by
     * replication). A call that finds the library missing (Redis restarted empty, a node that never
     * had it) loads it and retries once, as {@code NOSCRIPT} does for scripts. A Redis without
     * Functions (before 7.0), or a user its ACL does not allow {@code FUNCTION LOAD}, keeps
     * {@code EVALSHA}.
     */
    void useLibrary(RedisLibrary lib) {
        boolean supported;
        if (cluster == null) {
            supported = call(c -> {
                try {
                    loadLibrary(c, lib, null);
                    return true;
                } catch (JedisDataException e) {
                    // Functions exist but Redis refuses writes now (NOREPLICAS, READONLY, OOM, LOADING…):
                    // the store still connects, and its first call loads the library or reports the outage
                    return !unknownCommand(e);
                }
            });
        } else {
            supported = true;
            for (ConnectionPool node : cluster.getClusterNodes().values()) {
                // closed once, by the connection only: see onOneConnection
                try (Connection conn = node.getResource()) {
                    loadLibrary(onOneConnection(conn), lib);
                } catch (JedisDataException e) {
                    if (unknownCommand(e)) {
                        supported = false;
                    } // else a replica (read-only): it gets the library from its master
                } catch (JedisException e) {
                    // a node down now: it loads on its first missing function
                }
            }
        }
        library = supported ? lib : null;
    }

    private void loadLibrary(UnifiedJedis c, RedisLibrary lib, String sampleKey) {
        try {
            if (cluster != null && sampleKey != null) {
                c.sendCommand(sampleKey, Protocol.Command.FUNCTION, "LOAD", lib.source());
            } else {
                c.functionLoad(lib.source());
            }
        } catch (JedisDataException e) {
            if (!alreadyLoaded(e)) {
                throw e;
            }
        }
    }

    private static void loadLibrary(Jedis j, RedisLibrary lib) {
        try {
            j.functionLoad(lib.source());
        } catch (JedisDataException e) {
            if (!alreadyLoaded(e)) {
                throw e;
            }
        }
    }

    private static boolean functionMissing(JedisDataException e) {
        return e.getMessage() != null && e.getMessage().startsWith("ERR Function not found");
    }

    private static boolean alreadyLoaded(JedisDataException e) {
        return e.getMessage() != null && e.getMessage().contains("already exists");
    }

    /** No Functions here: a Redis before 7.0, or an ACL user not allowed {@code FUNCTION}. */
    private static boolean unknownCommand(JedisDataException e) {
        return e.getMessage() != null
                && (e.getMessage().startsWith("ERR unknown command")
                        || e.getMessage().startsWith("NOPERM"));
    }

    private Object refcalled(RedisLibrary lib, Supplier<Object> fcall) {
        try {
            return fcall.get();
        } catch (JedisDataException e) {
            if (!functionMissing(e)) {
                throw e;
            }
            throw new RedisUnavailableException(
                    RedisFailure.NOSCRIPT,
                    "Redis at " + where + " is unavailable (noscript): lost function library " + lib
                            + " again right after loading it",
                    e);
        }
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

    /**
     * {@code SCRIPT LOAD} of each script (Redis keeps one copy per SHA), e.g. at start; on a
     * cluster on every node that answers, replicas included (a promoted replica has them then).
     */
    public void load(List<RedisScript> scripts) {
        if (cluster == null) {
            call(c -> {
                for (RedisScript s : scripts) {
                    load(c, s, null);
                }
                return null;
            });
            return;
        }
        int loaded = 0;
        RuntimeException last = null;
        for (ConnectionPool node : cluster.getClusterNodes().values()) {
            // closed once, by the connection only: see onOneConnection
            try (Connection conn = node.getResource()) {
                Jedis j = onOneConnection(conn);
                for (RedisScript s : scripts) {
                    checkSha(s, j.scriptLoad(s.source()));
                }
                loaded++;
            } catch (JedisException e) {
                last = failure(e); // a node down now: it loads on its first NOSCRIPT
            }
        }
        if (loaded == 0 && last != null) {
            throw last;
        }
    }

    private void load(UnifiedJedis c, RedisScript s, String sampleKey) {
        checkSha(
                s,
                cluster != null && sampleKey != null ? c.scriptLoad(s.source(), sampleKey) : c.scriptLoad(s.source()));
    }

    private void checkSha(RedisScript s, String sha) {
        if (!s.sha().equals(sha)) {
            throw new IllegalStateException(
                    "Redis at " + where + " gave SHA " + sha + " for " + s + ", expected " + s.sha());
        }
    }

    /** {@link #evalDurably(RedisScript, List, List, int, Duration, Consumer)} without an observer. */
    public Object evalDurably(
            RedisScript script, List<String> keys, List<String> args, int replicas, Duration timeout) {
        return evalDurably(script, keys, args, replicas, timeout, o -> {});
    }

    /**
     * On a cluster: runs {@code script} like {@link #eval}, then {@code WAIT replicas timeout} on the
     * same connection of the master of {@code keys.get(0)}'s slot, so the acknowledgement counts
     * this script's writes. What the write waits for follows the master as it is now (its replicas
     * online per {@code INFO replication}, read at most once a second per master,
     * OnlineReplicas), not the topology at start: a replica promoted after its master died
     * has none until one attaches.
     * <ul>
     *   <li>{@code replicas} {@link RedisClusterConfig#WAIT_AUTO} waits for 1 when the master has a
     *       replica online, else for nothing (the write is answered, its durability degraded);</li>
     *   <li>{@code replicas} n &gt; 0 waits for n; a master known to have fewer than n online is
     *       refused <em>before</em> the script runs (nothing extracted, nothing lost), else the
     *       script runs and a short {@code WAIT} refuses it after ({@code RAN_NOT_DURABLE});</li>
     *   <li>0 waits for nothing.</li>
     * </ul>
     * {@code observer} hears what each write waited for ({@link WaitOutcome}), refused or not.
     * {@code WAIT} blocks its reply for up to {@code timeout}, so its read gets that much on top of
     * the socket timeout. A {@code MOVED} or {@code ASK} reply (the script did not run there)
     * refreshes the topology and is followed to the node it names, up to {@value #MAX_REDIRECTIONS}
     * attempts in all (then unavailable, busy); nothing else is retried: a script sent and not
     * answered may have run, and running an extraction again would extract again.
     *
     * <p>A failure says what is known of the script's run ({@link RedisUnavailableException#scriptRun()}):
     * not run (no connection, too few replicas known, or an error reply such as {@code BUSY},
     * {@code READONLY}, {@code TRYAGAIN}, {@code CLUSTERDOWN}), unknown (sent, no reply: timeout or
     * connection lost), or ran with its reply in hand but too few acknowledgements ({@code RAN_NOT_DURABLE}).
     *
     * @return the script's reply
     * @throws RedisUnavailableException when Redis cannot serve now, or when fewer replicas than
     *                                   required are online or acknowledged within the timeout
     * @throws RedisCommandException     when Redis or the script refused the call
     */
    public Object evalDurably(
            RedisScript script,
            List<String> keys,
            List<String> args,
            int replicas,
            Duration timeout,
            Consumer<WaitOutcome> observer) {
        if (cluster == null) {
            throw new IllegalStateException("evalDurably needs a Redis Cluster access (openCluster)");
        }
        int slot = JedisClusterCRC16.getSlot(keys.get(0));
        HostAndPort redirected = null;
        boolean asking = false;
        for (int attempt = 0; ; attempt++) {
            Connection conn;
            try {
                conn = connectionFor(slot, redirected);
            } catch (JedisException e) {
                // the slot's master is gone (failover) or unreachable: the next call needs the new topology
                refreshTopology();
                throw run(failure(e), RedisUnavailableException.ScriptRun.NOT_RUN, null);
            }
            boolean sent = false;
            Object reply = null;
            boolean ran = false;
            // closed once, by the connection only: see onOneConnection
            try (conn) {
                Jedis j = onOneConnection(conn);
                String master = conn.getHostAndPort().toString();
                long online = replicas == 0 ? -1 : onlineReplicas.freshOrRead(master, j);
                if (online == OnlineReplicas.NOT_A_MASTER) {
                    // a replica now (a failover the slot map has not seen): ask the master it names
                    refreshTopology();
                    if (attempt + 1 >= MAX_REDIRECTIONS) {
                        throw new RedisUnavailableException(
                                RedisFailure.BUSY,
                                "Redis Cluster " + this + " is unavailable (busy): slot " + slot
                                        + " is still mapped to a replica, " + master + ", after " + MAX_REDIRECTIONS
                                        + " attempts",
                                null,
                                RedisUnavailableException.ScriptRun.NOT_RUN,
                                null);
                    }
                    redirected = null;
                    asking = false;
                    continue;
                }
                if (replicas > 0 && online < replicas) { // refused before it runs: nothing extracted
                    String why = master + " has " + online + " replica(s) online, store.waitReplicas is " + replicas;
                    observer.accept(new WaitOutcome(master, online, replicas, true, why));
                    throw new RedisUnavailableException(
                            RedisFailure.BUSY,
                            "Redis at " + master + " is unavailable (busy): a " + purpose + " write refused: " + why,
                            null,
                            RedisUnavailableException.ScriptRun.NOT_RUN,
                            null);
                }
                long want = replicas == RedisClusterConfig.WAIT_AUTO ? Math.min(1, online) : replicas;
                if (asking) { // a slot migrating: the target serves it for the next command only
                    conn.executeCommand(Protocol.Command.ASKING);
                }
                RedisLibrary lib = library;
                String function = lib == null ? null : lib.function(script);
                if (function != null) {
                    try {
                        sent = true;
                        reply = j.fcall(function, keys, args);
                    } catch (JedisDataException e) {
                        if (!functionMissing(e)) {
                            throw e;
                        }
                        sent = false; // refused before it ran
                        loadLibrary(j, lib);
                        sent = true;
                        reply = refcalled(lib, () -> j.fcall(function, keys, args));
                    }
                } else
                    try {
                        sent = true;
                        reply = j.evalsha(script.sha(), keys, args);
                    } catch (JedisNoScriptException e) {
                        sent = false; // refused before it ran
                        checkSha(script, j.scriptLoad(script.source()));
                        sent = true;
                        reply = retried(script, () -> j.evalsha(script.sha(), keys, args));
                    }
                ran = true;
                if (want > 0) {
                    long acked = waitFor(conn, j, want, timeout);
                    if (acked < want) {
                        online = onlineReplicas.read(master, j); // what changed: a replica gone, or lagging
                        if (!(replicas == RedisClusterConfig.WAIT_AUTO && online == 0)) {
                            String why = acked + " of " + want + " replicas acknowledged within " + timeout.toMillis()
                                    + " ms (" + online + " online)";
                            observer.accept(new WaitOutcome(master, online, (int) want, true, why));
                            throw new RedisUnavailableException(
                                    RedisFailure.BUSY,
                                    "Redis at " + master + " is unavailable (busy): " + acked + " of " + want
                                            + " replicas acknowledged a " + purpose + " write within "
                                            + timeout.toMillis() + " ms",
                                    null,
                                    RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE,
                                    reply);
                        }
                        want = 0; // its replica went away meanwhile: the default waits for none now
                    }
                }
                observer.accept(new WaitOutcome(
                        master,
                        online,
                        (int) want,
                        false,
                        replicas == RedisClusterConfig.WAIT_AUTO && want == 0
                                ? master + " has no replica online: writes wait for none (durability degraded)"
                                : ""));
                return reply;
            } catch (RedisUnavailableException e) {
                throw e.scriptRun() == RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE
                        ? e
                        : run(
                                e,
                                ran
                                        ? RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE
                                        : RedisUnavailableException.ScriptRun.NOT_RUN,
                                reply); // NOSCRIPT twice: not run
            } catch (JedisRedirectionException e) {
                if (ran) {
                    throw run(failure(e), RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE, reply);
                }
                // the script did not run there: follow the redirection (a failover, a slot migrating)
                refreshTopology();
                if (attempt + 1 >= MAX_REDIRECTIONS) {
                    throw new RedisUnavailableException(
                            RedisFailure.BUSY,
                            "Redis Cluster " + this + " is unavailable (busy): slot " + slot
                                    + " still redirected after " + MAX_REDIRECTIONS + " attempts (" + e.getMessage()
                                    + ")",
                            e,
                            RedisUnavailableException.ScriptRun.NOT_RUN,
                            null);
                }
                redirected = e.getTargetNode();
                asking = e instanceof JedisAskDataException;
            } catch (JedisConnectionException e) {
                refreshTopology();
                throw run(
                        failure(e),
                        ran
                                ? RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE
                                : sent
                                        ? RedisUnavailableException.ScriptRun.UNKNOWN
                                        : RedisUnavailableException.ScriptRun.NOT_RUN,
                        reply);
            } catch (JedisException e) {
                // an error reply: to the script (it did not run, or failed: a command error) or to WAIT/INFO
                throw run(
                        failure(e),
                        ran
                                ? RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE
                                : RedisUnavailableException.ScriptRun.NOT_RUN,
                        reply);
            }
        }
    }

    /**
     * The master that serves {@code key}'s slot now and its replicas online (a reading at most
     * a second old, else its {@code INFO replication}), for a view of the
     * shards' durability without a write.
     *
     * @throws RedisUnavailableException when the master cannot be reached
     */
    public WaitOutcome masterOf(String key) {
        if (cluster == null) {
            throw new IllegalStateException("masterOf needs a Redis Cluster access (openCluster)");
        }
        int slot = JedisClusterCRC16.getSlot(key);
        for (int attempt = 1; ; attempt++) {
            try (Connection conn = cluster.getConnectionFromSlot(slot)) {
                String master = conn.getHostAndPort().toString();
                long online = onlineReplicas.freshOrRead(master, onOneConnection(conn));
                if (online != OnlineReplicas.NOT_A_MASTER) {
                    return new WaitOutcome(master, online, 0, false, "");
                }
                refreshTopology(); // a replica now: a failover the slot map has not seen
                if (attempt >= MAX_REDIRECTIONS) {
                    throw new RedisUnavailableException(
                            RedisFailure.BUSY,
                            "Redis Cluster " + this + " is unavailable (busy): slot " + slot
                                    + " is still mapped to a replica, " + master,
                            null);
                }
            } catch (JedisException e) {
                throw failure(e);
            }
        }
    }

    /** The master of {@code slot}, or the node a redirection named (when the client knows it). */
    private Connection connectionFor(int slot, HostAndPort redirected) {
        if (redirected != null) {
            ConnectionPool node = cluster.getClusterNodes().get(redirected.toString());
            if (node != null) {
                return node.getResource();
            }
        }
        return cluster.getConnectionFromSlot(slot);
    }

    /**
     * A Jedis view of a pooled connection, never to be closed itself: {@code Jedis.close()} hands
     * the connection back to its pool and forgets the pool, so a second close (the connection's own,
     * in a try-with-resources of both) then <em>disconnects</em> a connection the pool may already
     * have lent to another caller, cutting that caller's command mid-reply. Close the connection
     * only, once.
     */
    private static Jedis onOneConnection(Connection conn) {
        return new Jedis(conn);
    }

    /**
     * {@code WAIT want timeout}: the reply is blocked for up to {@code timeout}, so the read gets that
     * on top of the connection's socket timeout (as Jedis does for blocking commands).
     */
    private static long waitFor(Connection conn, Jedis j, long want, Duration timeout) {
        int socketTimeout = conn.getSoTimeout();
        conn.setSoTimeout((int) Math.min(Integer.MAX_VALUE, socketTimeout + timeout.toMillis()));
        try {
            return j.waitReplicas((int) want, timeout.toMillis());
        } finally {
            conn.setSoTimeout(socketTimeout);
        }
    }

    /** {@code failure} with what is known of a script's run, when it is an unavailability. */
    private static RuntimeException run(
            RuntimeException failure, RedisUnavailableException.ScriptRun run, Object reply) {
        return failure instanceof RedisUnavailableException u ? u.withScriptRun(run, reply) : failure;
    }

    private void refreshTopology() {
        try {
            cluster.refreshClusterTopology();
        } catch (RuntimeException ignored) {
            // best effort: the client refreshes again on its next redirection
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
        return cluster == null ? where.toString() : "cluster@" + where;
    }
}
