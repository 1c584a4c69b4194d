package dev.proxypool.sdk.coordination;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * <p><b>Value.</b> The key's value says which snapshot the worker serves, so a control plane can
 * flag workers that fall behind ({@link Reader}, {@code GET /v1/admin/snapshot}):
 * {@code pp1 <epoch> <version> <publishedAtMs> <appliedAtMs> <description>} (decimal, one space
 * apart; version 0 before the first snapshot; publishedAt is the control plane's clock, appliedAt
 * the worker's). A few dozen bytes, no secrets. A value without the {@code pp1 } prefix (a worker
 * of an older release wrote only the description) reads as "unknown" ({@link Worker#applied()} empty).
 * {@link #applied} records a newly applied version and heartbeats at once (asynchronously), so the
 * registry trails the worker by one Redis write, not by a heartbeat period.
 *
 * <p>Thread-safe. Heartbeat failures (Redis down) are logged once per outage; the key simply
 * expires if the worker stays cut off, which is what the others should see.
 */
public final class WorkerRegistry implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WorkerRegistry.class.getName());
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private final RedisAccess redis;
    private final CoordinationKeys keys;
    private final String id;
    private final String description;
    private final Duration ttl;
    private volatile boolean failing;
    private volatile Applied applied = Applied.NONE;
    private BackgroundTasks tasks; // guarded by this
    private volatile BackgroundTasks.Task beat;

    private WorkerRegistry(RedisAccess redis, CoordinationKeys keys, String id, String description, Duration ttl) {
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
        return open(CoordinationRedis.of(redis), settings, workerId, description);
    }

    /** {@link #open(RedisStoreConfig, ClusterSettings, String, String)} on one Redis node or a Redis Cluster. */
    public static WorkerRegistry open(
            CoordinationRedis redis, ClusterSettings settings, String workerId, String description) {
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
                CoordinationScript.HEARTBEAT,
                List.of(bytes(keys.workers()), bytes(keys.worker(id))),
                List.of(bytes(id), bytes(Long.toString(ttl.toMillis())), bytes(value(applied, description))));
    }

    /**
     * Records the snapshot version this worker now serves and, once {@link #start()}ed, heartbeats
     * at once on the heartbeat thread (never blocking the caller on Redis).
     */
    public void applied(long epoch, long version, Instant publishedAt, Instant appliedAt) {
        applied = new Applied(epoch, version, publishedAt, appliedAt);
        BackgroundTasks.Task t = beat;
        if (t != null) {
            t.runNow(); // closing: no effect, the key is about to be removed anyway
        }
    }

    static String value(Applied a, String description) {
        return "pp1 " + a.epoch() + " " + a.version() + " " + a.publishedAt().toEpochMilli() + " "
                + a.appliedAt().toEpochMilli() + " " + description;
    }

    /** Parses a heartbeat value; an older release's plain description gives an empty {@link Worker#applied()}. */
    static Worker parse(String id, String value) {
        if (value.startsWith("pp1 ")) {
            String[] f = value.split(" ", 6);
            if (f.length >= 5) {
                try {
                    Applied a = new Applied(
                            Long.parseLong(f[1]),
                            Long.parseLong(f[2]),
                            Instant.ofEpochMilli(Long.parseLong(f[3])),
                            Instant.ofEpochMilli(Long.parseLong(f[4])));
                    return new Worker(id, f.length == 6 ? f[5] : "", Optional.of(a));
                } catch (IllegalArgumentException | DateTimeException e) {
                    // not ours after all (a malformed number or instant): show it as a description
                }
            }
        }
        return new Worker(id, value, Optional.empty());
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
        Object reply = redis.evalBinary(CoordinationScript.LIVE, workerKeys, indexed);
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

    /** Heartbeats now, then every third of the TTL (background task {@code worker-heartbeat}). Idempotent. */
    public synchronized void start() {
        if (tasks != null) {
            return;
        }
        beatOnce();
        tasks = BackgroundTasks.of("worker registry");
        beat = tasks.every("worker-heartbeat", ttl.dividedBy(3), this::beatOnce);
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
        BackgroundTasks t;
        synchronized (this) {
            t = tasks;
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

    /**
     * A read-only view of the registry for the control plane: {@link Reader#read()} returns the live
     * workers with the snapshot each serves and the published head, in one script call (two when
     * the set of workers changed since the previous read). The caller closes it.
     */
    public static Reader reader(CoordinationRedis redis) {
        return new Reader(redis.open("registry-read", 1), redis.keys());
    }

    /**
     * The snapshot a worker serves, as its heartbeat says.
     *
     * @param epoch       the content's lineage (0 before the first snapshot)
     * @param version     the content's version (0 before the first snapshot)
     * @param publishedAt when the control plane published that version (its clock; EPOCH before the first)
     * @param appliedAt   when the worker applied it (the worker's clock; EPOCH before the first)
     */
    public record Applied(long epoch, long version, Instant publishedAt, Instant appliedAt) {
        public Applied {
            if (version < 0 || publishedAt == null || appliedAt == null) {
                throw new IllegalArgumentException(
                        "an applied snapshot needs a version of at least 0 and both instants, got version " + version
                                + ", publishedAt " + publishedAt + ", appliedAt " + appliedAt);
            }
        }

        static final Applied NONE = new Applied(0, 0, Instant.EPOCH, Instant.EPOCH);
    }

    /**
     * One live worker.
     *
     * @param id          its id
     * @param description what it registered with (e.g. {@code host:port})
     * @param applied     the snapshot it serves; empty when its heartbeat has the older format (unknown)
     */
    public record Worker(String id, String description, Optional<Applied> applied) {}

    /**
     * The live workers and the published head, read together.
     *
     * @param headEpoch   the published lineage (0 when nothing was published)
     * @param headVersion the newest published version (0 when nothing was published)
     * @param workers     live workers, sorted by id
     */
    public record Fleet(long headEpoch, long headVersion, List<Worker> workers) {

        /**
         * Versions published that {@code w} has not applied: the head minus its version, the whole head
         * when it serves another lineage; empty when unknown (older heartbeat format).
         */
        public Optional<Long> behind(Worker w) {
            return w.applied().map(a -> {
                long held = a.epoch() == headEpoch ? a.version() : 0;
                return Math.max(0, headVersion - held);
            });
        }
    }

    /** See {@link #reader(CoordinationRedis)}. Thread-safe. */
    public static final class Reader implements AutoCloseable {
        private final RedisAccess redis;
        private final CoordinationKeys keys;
        private volatile List<String> known = List.of();

        private Reader(RedisAccess redis, CoordinationKeys keys) {
            this.redis = redis;
            this.keys = keys;
        }

        /** @throws StoreUnavailableException when Redis is unreachable */
        public Fleet read() {
            List<String> ids = known;
            for (int attempt = 0; ; attempt++) {
                List<byte[]> scriptKeys = new ArrayList<>(ids.size() + 3);
                scriptKeys.add(bytes(keys.workers()));
                scriptKeys.add(bytes(keys.full()));
                scriptKeys.add(bytes(keys.deltas()));
                List<byte[]> args = new ArrayList<>(ids.size());
                for (String one : ids) {
                    scriptKeys.add(bytes(keys.worker(one)));
                    args.add(bytes(one));
                }
                List<?> reply = (List<?>) redis.evalBinary(CoordinationScript.READ, scriptKeys, args);
                String epoch = text(reply.get(0));
                long headVersion = (Long) reply.get(1);
                List<String> index = new ArrayList<>();
                for (Object o : (List<?>) reply.get(2)) {
                    index.add(text(o));
                }
                index.sort(null);
                Set<String> passed = new HashSet<>(ids);
                if (!passed.containsAll(index) && attempt < 3) {
                    ids = index; // workers joined since the last read: read their keys too
                    continue;
                }
                known = index;
                List<?> pairs = (List<?>) reply.get(3);
                List<Worker> workers = new ArrayList<>(pairs.size() / 2);
                for (int i = 0; i + 1 < pairs.size(); i += 2) {
                    workers.add(parse(text(pairs.get(i)), text(pairs.get(i + 1))));
                }
                workers.sort(Comparator.comparing(Worker::id));
                return new Fleet(epoch.isEmpty() ? 0 : Long.parseLong(epoch), headVersion, workers);
            }
        }

        @Override
        public void close() {
            redis.close();
        }
    }

    private static String text(Object o) {
        return new String((byte[]) o, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
