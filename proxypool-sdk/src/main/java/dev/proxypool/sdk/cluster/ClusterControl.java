package dev.proxypool.sdk.cluster;

import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The control role's publishing assembled ({@code proxypool serve --role control|all} with the Redis
 * store): watches the engine's live snapshot and publishes its content whenever a new snapshot was
 * built (pipeline round, admin change, extraction refresh), plus the publisher's own maintenance
 * (validity renewal, full rewrites on request). Nothing in the pipeline or the engine has to call
 * it: the check is one volatile read every {@code checkEvery}; a publish that fails (Redis down) is
 * retried at the next check. Thread-safe; {@link #close()} is prompt.
 */
public final class ClusterControl implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ClusterControl.class.getName());

    private final PoolEngine engine;
    private final SnapshotPublisher publisher;
    private final Duration checkEvery;
    private final ReentrantLock lock = new ReentrantLock();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("snapshot-watch").factory());
    private PoolSnapshot lastPublished;
    private boolean failing;

    private ClusterControl(PoolEngine engine, SnapshotPublisher publisher, Duration checkEvery) {
        this.engine = engine;
        this.publisher = publisher;
        this.checkEvery = checkEvery;
    }

    /**
     * Opens the publisher, publishes the engine's current content, and starts watching.
     *
     * @param checkEvery how often the engine's snapshot is compared with the last published one (e.g. 200 ms)
     * @throws dev.proxypool.core.extract.StoreUnavailableException when Redis is unreachable at start
     */
    public static ClusterControl start(
            RedisStoreConfig redis,
            ClusterSettings settings,
            PoolEngine engine,
            Duration checkEvery,
            InstantSource wall,
            Ticker ticker) {
        if (checkEvery == null || checkEvery.isNegative() || checkEvery.isZero()) {
            throw new IllegalArgumentException("checkEvery must be a positive duration, got " + checkEvery);
        }
        SnapshotPublisher publisher = SnapshotPublisher.open(redis, settings, wall, ticker);
        ClusterControl c = new ClusterControl(engine, publisher, checkEvery);
        c.publishIfChanged();
        publisher.start();
        long every = checkEvery.toNanos();
        c.watch.scheduleWithFixedDelay(c::publishIfChanged, every, every, TimeUnit.NANOSECONDS);
        return c;
    }

    /** Publishes the engine's snapshot now if it is not the last one published; used by the watch and by owners. */
    public void publishIfChanged() {
        lock.lock();
        try {
            PoolSnapshot current = engine.snapshot();
            if (current == lastPublished) {
                return;
            }
            try {
                PublishReport r = publisher.publish(current.proxies());
                lastPublished = current;
                if (failing) {
                    failing = false;
                    LOG.log(Level.INFO, "snapshot publishing works again (version {0})", r.version());
                }
            } catch (RuntimeException e) {
                if (!failing) {
                    failing = true;
                    LOG.log(Level.WARNING, "snapshot publish failed, retrying: {0}", e.getMessage());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    public SnapshotPublisher publisher() {
        return publisher;
    }

    @Override
    public void close() {
        watch.close(); // no further checks; waits for one in progress
        publisher.close();
    }
}
