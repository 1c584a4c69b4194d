package dev.proxypool.sdk.coordination;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisCommandException;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The control plane's side of snapshot distribution (docs/design.md#snapshots-and-distribution, N3): after each change of the pool the
 * owner calls {@link #publish(Collection)} with the current content; the publisher diffs it against
 * the last published content and writes version {@code n + 1} in one atomic Redis script
 * ({@code snapshot_publish.lua}): the delta (or a reset marker) appended to the
 * {@code <prefix>snapshot:deltas} stream trimmed to the last {@link ClusterSettings#deltasKept()},
 * the full frame into the {@code <prefix>snapshot:full} hash every {@link ClusterSettings#fullEvery()}
 * versions, and a {@code PUBLISH} of {@code "<epoch>:<version>"} on {@code <prefix>snapshot:events}.
 *
 * <p><b>Versions</b> strictly increase: on open the publisher continues after the stored head
 * (keeping the stored epoch), and the script refuses a version not above the head ({@code STALE}),
 * so two control planes can never interleave versions silently. After a refused or failed publish
 * (Redis down, reply lost) the published state is uncertain: the next version is written as a
 * {@link SnapshotFrame.Reset} with a full frame, so workers reload instead of applying a delta
 * against the wrong base. Each version carries {@code validUntil = now + validity}.
 *
 * <p><b>Maintenance</b> ({@link #start()}): a virtual thread renews validity with an empty version
 * after {@link ClusterSettings#renewAfter()} without a change, and rewrites the full snapshot when a
 * worker asked for it ({@code <prefix>snapshot:resync}) or the full key is missing (Redis restarted
 * empty). Costs: publish O(n) for the diff plus O(changes) encoding, plus O(n) for a full rewrite.
 *
 * <p>Thread-safe: publishes are serialized by one lock (owner calls and maintenance).
 */
public final class SnapshotPublisher implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SnapshotPublisher.class.getName());

    private final RedisAccess redis;
    private final CoordinationKeys keys;
    private final ClusterSettings settings;
    private final InstantSource wall;
    private final Ticker ticker;
    private final SnapshotCodec deltaCodec = SnapshotCodec.plain();
    private final SnapshotCodec fullCodec;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    /** The control-plane lease's fencing token this publisher writes under, 0 without a lease. */
    private final long fence;
    /** Set once the publish script refused the token: a newer control plane leads; nothing more is written. */
    private volatile boolean fenced;

    private long epoch;
    private long version;
    /** The content of {@link #version} as Redis holds it, or null when uncertain (write a reset). */
    private PoolContent base;
    /** The last content the owner published, or null before the first publish. */
    private PoolContent content;

    private int versionsSinceFull;
    private boolean fullRequested;
    private long lastPublishNanos;
    private boolean running;
    private boolean failing;
    private final BackgroundTasks tasks = BackgroundTasks.of("snapshot publisher");

    private SnapshotPublisher(
            RedisAccess redis,
            CoordinationKeys keys,
            ClusterSettings settings,
            InstantSource wall,
            Ticker ticker,
            long fence) {
        this.redis = redis;
        this.fence = fence;
        this.keys = keys;
        this.settings = settings;
        this.wall = wall;
        this.ticker = ticker;
        this.fullCodec = settings.deflate() ? SnapshotCodec.deflated() : SnapshotCodec.plain();
    }

    /**
     * Connects and reads the stored head: continues its epoch and versions, or starts a new random
     * epoch when Redis holds no snapshot.
     *
     * @throws StoreUnavailableException when Redis cannot be reached within the store's timeouts
     */
    public static SnapshotPublisher open(
            RedisStoreConfig redis, ClusterSettings settings, InstantSource wall, Ticker ticker) {
        return open(CoordinationRedis.of(redis), settings, wall, ticker, 0);
    }

    /**
     * {@link #open(RedisStoreConfig, ClusterSettings, InstantSource, Ticker)} on one Redis node or
     * a Redis Cluster, writing under a control-plane lease's fencing token ({@link ControlLeadership}):
     * the publish script refuses every version once a newer token was issued ({@link #fenced()}).
     *
     * @param fence the lease's token, or 0 for a publisher without a lease (the only control plane)
     * @throws StoreUnavailableException when Redis cannot be reached within the store's timeouts
     */
    public static SnapshotPublisher open(
            CoordinationRedis redis, ClusterSettings settings, InstantSource wall, Ticker ticker, long fence) {
        if (fence < 0) {
            throw new IllegalArgumentException("fencing token must not be negative, got " + fence);
        }
        RedisAccess r = redis.open("control", 2);
        SnapshotPublisher p = new SnapshotPublisher(r, redis.keys(), settings, wall, ticker, fence);
        try {
            p.lock.lock();
            try {
                p.readHead();
            } finally {
                p.lock.unlock();
            }
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
        return p;
    }

    /**
     * Publishes {@code current} as the next version when it differs from the last published
     * content, when validity is due for renewal, or when a full rewrite is needed; otherwise does
     * nothing ({@link PublishReport#published()} false).
     *
     * @throws IllegalArgumentException  when two proxies share an id
     * @throws StoreUnavailableException when Redis is unreachable (the next publish writes a reset)
     */
    public PublishReport publish(Collection<Proxy> current) {
        lock.lock();
        try {
            long started = ticker.read();
            PoolContent next = PoolContent.of(current, content);
            return publishLocked(next, false).plusEncodeNanos(ticker.read() - started);
        } finally {
            lock.unlock();
        }
    }

    /** Publishes the last content again as a new, empty version: validity renewed, full rewritten if due. */
    public PublishReport renew() {
        lock.lock();
        try {
            if (content == null) {
                throw new IllegalStateException("nothing was published yet: publish the content first");
            }
            return publishLocked(content, true);
        } finally {
            lock.unlock();
        }
    }

    private PublishReport publishLocked(PoolContent next, boolean force) {
        if (fenced) {
            throw new FencedException("fencing token " + fence + " was superseded: another control plane publishes");
        }
        try {
            return fencedAttempt(next, force);
        } catch (RedisCommandException e) {
            if (!e.reply().startsWith("STALE")) {
                throw e;
            }
            LOG.log(
                    Level.WARNING,
                    "snapshot version {0} refused ({1}): another control plane published;"
                            + " continuing after the stored head with a full snapshot",
                    version + 1,
                    e.reply());
            base = null;
            readHead();
            return fencedAttempt(next, true);
        }
    }

    /** {@link #attempt}, turning the script's {@code FENCED} refusal into {@link FencedException} for good. */
    private PublishReport fencedAttempt(PoolContent next, boolean force) {
        try {
            return attempt(next, force);
        } catch (RedisCommandException e) {
            if (!e.reply().startsWith("FENCED")) {
                throw e;
            }
            fenced = true;
            base = null;
            LOG.log(
                    Level.WARNING,
                    "snapshot version {0} refused ({1}): a newer control plane holds the lease;"
                            + " this one publishes nothing more",
                    version + 1,
                    e.reply());
            throw new FencedException("snapshot publish refused (" + e.reply() + "): another control plane leads");
        }
    }

    private PublishReport attempt(PoolContent next, boolean force) {
        long started = ticker.read();
        PoolContent.Change change = base == null ? null : base.diff(next);
        boolean renewDue = started - lastPublishNanos >= settings.renewAfter().toNanos();
        if (!force && change != null && change.isEmpty() && !renewDue && !fullRequested) {
            content = next;
            return new PublishReport(false, epoch, version, 0, 0, false, 0, 0, ticker.read() - started, 0);
        }
        long v = version + 1;
        long now = wall.millis();
        SnapshotHeader header =
                new SnapshotHeader(epoch, v, now, now + settings.validity().toMillis(), next.size(), next.digest());
        boolean reset = change == null;
        boolean writeFull = reset || fullRequested || versionsSinceFull + 1 >= settings.fullEvery();
        SnapshotFrame delta = reset
                ? new SnapshotFrame.Reset(header, v - 1)
                : new SnapshotFrame.Delta(header, v - 1, change.upserts(), change.removed());
        byte[] deltaFrame = deltaCodec.encode(delta);
        byte[] fullFrame = writeFull ? fullCodec.encode(new SnapshotFrame.Full(header, next.proxies())) : new byte[0];
        long encoded = ticker.read();
        content = next;
        try {
            redis.evalBinary(
                    CoordinationScript.PUBLISH,
                    List.of(
                            CoordinationKeys.bytes(keys.full()),
                            CoordinationKeys.bytes(keys.deltas()),
                            CoordinationKeys.bytes(keys.resync()),
                            CoordinationKeys.bytes(keys.fence())),
                    List.of(
                            CoordinationKeys.bytes(Long.toString(epoch)),
                            CoordinationKeys.bytes(Long.toString(v)),
                            deltaFrame,
                            fullFrame,
                            CoordinationKeys.bytes(Integer.toString(settings.deltasKept())),
                            CoordinationKeys.bytes(keys.events()),
                            CoordinationKeys.bytes(epoch + ":" + v),
                            CoordinationKeys.bytes(fence == 0 ? "" : Long.toString(fence))));
        } catch (StoreUnavailableException e) {
            base = null; // the script may have run: write a reset next time
            version = v; // and never reuse a version that may be stored
            throw e;
        }
        long done = ticker.read();
        version = v;
        base = next;
        lastPublishNanos = done;
        versionsSinceFull = writeFull ? 0 : versionsSinceFull + 1;
        if (writeFull) {
            fullRequested = false;
        }
        return new PublishReport(
                true,
                epoch,
                v,
                reset ? next.size() : change.upserts().size(),
                reset ? 0 : change.removed().size(),
                reset,
                deltaFrame.length,
                fullFrame.length,
                encoded - started,
                done - encoded);
    }

    /**
     * Reads the stored head under the lock: continues the stored epoch and versions, notes a
     * worker's request for a full (or a missing full), and forgets the base when another writer
     * moved the head.
     */
    private void readHead() {
        List<?> head = (List<?>) redis.evalBinary(
                CoordinationScript.HEAD,
                List.of(
                        CoordinationKeys.bytes(keys.full()),
                        CoordinationKeys.bytes(keys.deltas()),
                        CoordinationKeys.bytes(keys.resync())),
                List.of());
        String storedEpoch = new String((byte[]) head.get(0), StandardCharsets.UTF_8);
        long full = (Long) head.get(1);
        long stored = Math.max(full, (Long) head.get(2));
        if (!storedEpoch.isEmpty() && Long.parseLong(storedEpoch) != epoch) {
            epoch = Long.parseLong(storedEpoch);
            base = null;
        } else if (epoch == 0) {
            epoch = newEpoch();
        }
        if (stored > version) {
            version = stored;
            base = null;
        }
        fullRequested = fullRequested || (Long) head.get(3) == 1L || full == 0;
    }

    private static long newEpoch() {
        long e;
        do {
            e = new SecureRandom().nextLong();
        } while (e == 0);
        return e;
    }

    /**
     * Starts the maintenance loop (background task {@code snapshot-publisher}): validity renewal after {@link ClusterSettings#renewAfter()}
     * without a change, and a full rewrite within about a second of a worker's request or of the
     * full key going missing. Idempotent.
     */
    public void start() {
        lock.lock();
        try {
            if (running) {
                return;
            }
            running = true;
            tasks.loop("snapshot-publisher", this::maintain);
        } finally {
            lock.unlock();
        }
    }

    private void maintain() throws InterruptedException {
        long checkNanos =
                Math.min(TimeUnit.SECONDS.toNanos(1), settings.renewAfter().toNanos() / 2);
        lock.lock();
        try {
            while (running) {
                wake.awaitNanos(checkNanos);
                if (!running || content == null || fenced) {
                    continue;
                }
                try {
                    readHead();
                    boolean due = ticker.read() - lastPublishNanos
                            >= settings.renewAfter().toNanos();
                    if (fullRequested || due || base == null) {
                        PublishReport r = publishLocked(content, true);
                        LOG.log(
                                Level.DEBUG,
                                "snapshot version {0} renewed (full: {1} bytes)",
                                r.version(),
                                r.fullBytes());
                    }
                    if (failing) {
                        failing = false;
                        LOG.log(Level.INFO, "snapshot publishing reaches Redis again (version {0})", version);
                    }
                } catch (RuntimeException e) {
                    if (!failing) {
                        failing = true;
                        LOG.log(
                                Level.WARNING,
                                "snapshot maintenance failed (retrying every second): {0}",
                                e.getMessage());
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** True once the publish script refused this publisher's fencing token (a newer control plane leads). */
    public boolean fenced() {
        return fenced;
    }

    /** The fencing token this publisher writes under, 0 without a lease. */
    public long fencingToken() {
        return fence;
    }

    /** Thrown by a publish refused for an outdated fencing token: another control plane took the lease. */
    public static final class FencedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        FencedException(String message) {
            super(message);
        }
    }

    /** The lineage this publisher writes. */
    public long epoch() {
        lock.lock();
        try {
            return epoch;
        } finally {
            lock.unlock();
        }
    }

    /** The last version written (or found stored on open). */
    public long version() {
        lock.lock();
        try {
            return version;
        } finally {
            lock.unlock();
        }
    }

    /** Stops maintenance (promptly) and closes the connections. */
    @Override
    public void close() {
        lock.lock();
        try {
            running = false;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
        tasks.close(); // interrupts the maintenance loop and joins it
        redis.close();
    }
}
