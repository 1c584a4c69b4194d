package dev.proxypool.sdk.cluster;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Which gateway workers are alive, so each can take its share of every proxy's concurrency
 * (docs/design.md#capacity, C5): a worker with {@code w} live workers builds its engine with
 * {@code new RuntimeRegistry(policy, ticker, w)}, which gives it {@code max(1, maxConcurrency / w)}
 * of each proxy.
 *
 * <p>Each worker holds a key {@code <prefix>workers:<id>} with a TTL of
 * {@link ClusterSettings#workerTtl()}, refreshed by {@link #heartbeat()} (every third of the TTL
 * once {@link #start()}ed), and its id in the index set {@code <prefix>workers}. Liveness is Redis'
 * own key expiry — the receiver's clock, never a timestamp the sender wrote — so skewed worker
 * clocks cannot keep a dead worker counted. {@link #count()} reads the index ({@code SMEMBERS}), then one
 * script checks each id's key (passed in {@code KEYS}), drops ids whose key expired and returns the
 * rest: two round trips, O(workers).
 *
 * <p>Thread-safe. Heartbeat failures (Redis down) are logged once per outage; the key simply
 * expires if the worker stays cut off, which is what the others should see.
 */
public final class WorkerRegistry implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WorkerRegistry.class.getName());
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private final RedisAccess redis;
    private final ClusterKeys keys;
    private final String id;
    private final String description;
    private final Duration ttl;
    private volatile boolean failing;
    private ScheduledExecutorService beat; // guarded by this

    private WorkerRegistry(RedisAccess redis, ClusterKeys keys, String id, String description, Duration ttl) {
        this.redis = redis;
        this.keys = keys;
        this.id = id;
        this.description = description;
        this.ttl = ttl;
    }

    /**
     * A registry handle for worker {@code workerId} (letters, digits, {@code . _ : -}; at most 128).
     * Nothing is written until {@link #heartbeat()} or {@link #start()}.
     *
     * @param description a short text stored in the worker's key (e.g. host and port); no secrets
     */
    public static WorkerRegistry open(
            RedisStoreConfig redis, ClusterSettings settings, String workerId, String description) {
        return open(ClusterRedis.of(redis), settings, workerId, description);
    }

    /** {@link #open(RedisStoreConfig, ClusterSettings, String, String)} on one Redis node or a Redis Cluster. */
    public static WorkerRegistry open(
            ClusterRedis redis, ClusterSettings settings, String workerId, String description) {
        if (workerId == null || !ID.matcher(workerId).matches()) {
            throw new IllegalArgumentException("worker id '" + workerId
                    + "' is invalid (letters, digits, '.', '_', ':', '-'; at most 128 characters)");
        }
        return new WorkerRegistry(
                redis.open("registry", 1),
                redis.keys(),
                workerId,
                description == null ? "" : description,
                settings.workerTtl());
    }

    public String workerId() {
        return id;
    }

    /**
     * Marks this worker alive for one TTL from now (Redis' clock).
     *
     * @throws StoreUnavailableException when Redis is unreachable
     */
    public void heartbeat() {
        redis.evalBinary(
                ClusterScript.HEARTBEAT,
                List.of(bytes(keys.workers()), bytes(keys.worker(id))),
                List.of(bytes(id), bytes(Long.toString(ttl.toMillis())), bytes(description)));
    }

    /** Ids of the live workers, sorted. @throws StoreUnavailableException when Redis is unreachable */
    public List<String> live() {
        List<byte[]> indexed = redis.call(c -> new ArrayList<>(c.smembers(bytes(keys.workers()))));
        if (indexed.isEmpty()) {
            return List.of();
        }
        List<byte[]> workerKeys = new ArrayList<>(indexed.size() + 1);
        workerKeys.add(bytes(keys.workers()));
        for (byte[] one : indexed) {
            workerKeys.add(bytes(keys.worker(new String(one, StandardCharsets.UTF_8))));
        }
        Object reply = redis.evalBinary(ClusterScript.LIVE, workerKeys, indexed);
        List<String> ids = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            ids.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        ids.sort(null);
        return ids;
    }

    /** How many workers are alive (at least this one once it has heartbeaten). */
    public int count() {
        return live().size();
    }

    /** Heartbeats now, then every third of the TTL on a virtual thread. Idempotent. */
    public synchronized void start() {
        if (beat != null) {
            return;
        }
        beatOnce();
        beat = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("worker-heartbeat").factory());
        long period = ttl.toNanos() / 3;
        beat.scheduleWithFixedDelay(this::beatOnce, period, period, TimeUnit.NANOSECONDS);
    }

    private void beatOnce() {
        try {
            heartbeat();
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "worker {0}: heartbeats reach Redis again", id);
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, "worker {0}: heartbeat failed: {1}", id, e.getMessage());
            }
        }
    }

    /** Stops heartbeating and removes this worker's key at once (best effort), so the others re-count. */
    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = beat;
        }
        if (t != null) {
            t.close(); // no further heartbeats; waits for one in progress
        }
        try {
            redis.call(c -> {
                c.del(keys.worker(id));
                c.srem(keys.workers(), id);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "worker {0}: deregistration failed: {1}", id, e.getMessage());
        }
        redis.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
