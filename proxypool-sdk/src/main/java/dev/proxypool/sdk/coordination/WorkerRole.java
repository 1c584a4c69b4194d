package dev.proxypool.sdk.coordination;

import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The worker role assembled ({@code proxypool serve --role worker}): a {@link SnapshotSubscriber}
 * whose every version rebuilds the engine's snapshot ({@link PoolEngine#refresh(java.util.Collection)}),
 * and a {@link WorkerRegistry} heartbeat so workers count each other. With {@link WorkerShare.Live}
 * a virtual thread re-counts the live workers every third of {@link ClusterSettings#workerTtl()} and,
 * when the count changed, hands the last content over again with the new shares. The sequential
 * routings' positions follow the control plane's ({@link SharedSequentialStates}, every second).
 *
 * <p>The engine must not also be refreshed from the store (no pipeline in the worker role): its
 * content is the control plane's. Thread-safe; {@link #close()} is prompt.
 */
public final class WorkerRole implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WorkerRole.class.getName());
    /** How often the sequential positions are re-read: a switch happens at most once per fetch. */
    static final Duration SEQUENTIAL_FOLLOW = Duration.ofSeconds(1);

    private final PoolEngine engine;
    private final WorkerShare share;
    private final WorkerRegistry registry;
    private final Duration recountEvery;
    private final InstantSource wall;
    private final ReentrantLock lock = new ReentrantLock();
    private ReceivedSnapshot last;
    private volatile int sharedAmong = 1;
    private SnapshotSubscriber subscriber;
    private BackgroundTasks recount;
    private SharedSequentialStates sequential;

    private WorkerRole(
            PoolEngine engine, WorkerShare share, WorkerRegistry registry, Duration recountEvery, InstantSource wall) {
        this.engine = engine;
        this.wall = wall;
        this.share = share;
        this.registry = registry;
        this.recountEvery = recountEvery;
    }

    /**
     * Registers the worker and starts following the control plane. Returns at once; see
     * {@link #awaitFirstSnapshot(Duration)} to hold readiness until the first content arrived.
     *
     * @param workerId    unique per worker process (e.g. host name and gateway port)
     * @param description stored with the heartbeat (e.g. {@code host:port}); no secrets
     */
    public static WorkerRole start(
            RedisStoreConfig redis,
            ClusterSettings settings,
            PoolEngine engine,
            WorkerShare share,
            String workerId,
            String description,
            InstantSource wall,
            Ticker ticker) {
        return start(CoordinationRedis.of(redis), settings, engine, share, workerId, description, wall, ticker);
    }

    /** {@link #start(RedisStoreConfig, ClusterSettings, PoolEngine, WorkerShare, String, String, InstantSource, Ticker)} on one Redis node or a Redis Cluster. */
    public static WorkerRole start(
            CoordinationRedis redis,
            ClusterSettings settings,
            PoolEngine engine,
            WorkerShare share,
            String workerId,
            String description,
            InstantSource wall,
            Ticker ticker) {
        WorkerRegistry registry = WorkerRegistry.open(redis, settings, workerId, description);
        WorkerRole w =
                new WorkerRole(engine, share, registry, settings.workerTtl().dividedBy(3), wall);
        registry.start();
        if (share instanceof WorkerShare.Live) {
            w.sharedAmong = w.liveCountOr(1);
            w.recount = BackgroundTasks.of("cluster worker");
            w.recount.every("worker-recount", w.recountEvery, w::recount);
        }
        // the control plane moves the sequential routings; this worker serves from where they stand
        w.sequential = SharedSequentialStates.open(redis);
        w.sequential.follow(engine.sequential(), SEQUENTIAL_FOLLOW);
        w.subscriber = SnapshotSubscriber.start(redis, settings, w::apply, wall, ticker);
        return w;
    }

    private void apply(ReceivedSnapshot snapshot) {
        lock.lock();
        try {
            last = snapshot;
            rebuild();
        } finally {
            lock.unlock();
        }
        // the control plane sees which version this worker serves (GET /v1/admin/snapshot's workers)
        registry.applied(snapshot.epoch(), snapshot.version(), snapshot.publishedAt(), wall.instant());
    }

    private void rebuild() {
        int n = sharedAmong;
        engine.refresh(
                switch (share) {
                    case WorkerShare.Fixed f -> last.proxies();
                    case WorkerShare.Live l -> WorkerShare.divide(last.proxies(), n);
                });
    }

    private void recount() {
        lock.lock();
        try {
            int n = liveCountOr(sharedAmong);
            if (n != sharedAmong) {
                LOG.log(Level.INFO, "live workers {0} -> {1}: re-sharing every proxy''s concurrency", sharedAmong, n);
                sharedAmong = n;
                if (last != null) {
                    rebuild();
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "worker re-count failed: {0}", e.getMessage()); // a throw would end the schedule
        } finally {
            lock.unlock();
        }
    }

    private int liveCountOr(int fallback) {
        try {
            return Math.max(1, registry.count());
        } catch (RuntimeException e) {
            return fallback; // Redis down: keep the current shares
        }
    }

    /** Waits until the first content from the control plane is in the engine. */
    public boolean awaitFirstSnapshot(Duration timeout) throws InterruptedException {
        return subscriber.awaitVersion(1, timeout);
    }

    public SubscriberStatus status() {
        return subscriber.status();
    }

    /** How many workers the proxies' concurrency is divided among now (1 with {@link WorkerShare.Fixed}). */
    public int sharedAmong() {
        return share instanceof WorkerShare.Live ? sharedAmong : 1;
    }

    public SnapshotSubscriber subscriber() {
        return subscriber;
    }

    public WorkerRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        if (recount != null) {
            recount.close(); // no further re-counts; waits for one in progress
        }
        subscriber.close();
        if (sequential != null) {
            sequential.close();
        }
        registry.close();
    }
}
