package dev.proxypool.sdk.cluster;

import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.locks.Condition;
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
    private final Condition stop = lock.newCondition();
    private volatile boolean running = true;
    private PoolSnapshot lastPublished;
    private boolean failing;
    private Thread watch;

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
    public static ClusterControl start(RedisStoreConfig redis, ClusterSettings settings, PoolEngine engine,
                                       Duration checkEvery, InstantSource wall, Ticker ticker) {
        if (checkEvery == null || checkEvery.isNegative() || checkEvery.isZero()) {
            throw new IllegalArgumentException("checkEvery must be a positive duration, got " + checkEvery);
        }
        SnapshotPublisher publisher = SnapshotPublisher.open(redis, settings, wall, ticker);
        ClusterControl c = new ClusterControl(engine, publisher, checkEvery);
        c.publishIfChanged();
        publisher.start();
        c.watch = Thread.ofVirtual().name("snapshot-watch").start(c::loop);
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

    private void loop() {
        while (running) {
            lock.lock();
            try {
                long left = checkEvery.toNanos();
                while (running && left > 0) {
                    left = stop.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            if (running) {
                publishIfChanged();
            }
        }
    }

    public SnapshotPublisher publisher() {
        return publisher;
    }

    @Override
    public void close() {
        running = false;
        lock.lock();
        try {
            stop.signalAll();
        } finally {
            lock.unlock();
        }
        if (watch != null) {
            watch.interrupt();
            try {
                watch.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        publisher.close();
    }
}
