package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The control role's publishing assembled ({@code proxypool serve --role control|all} with the Redis
 * store): watches the engine's live snapshot and publishes its content whenever a new snapshot was
 * built (pipeline round, admin change, extraction refresh), plus the publisher's own maintenance
 * (validity renewal, full rewrites on request). Nothing in the pipeline or the engine has to call
 * it: the check is one volatile read every {@code checkEvery}; a publish that fails (Redis down) is
 * retried at the next check. Proxies the owner's {@link PublishHold} names ({@link #holdBack}: nodes
 * not checked yet, docs/design.md H10b) are left out of what is published until the hold lets them go.
 *
 * <p><b>Standby</b> ({@link #startLeased}): several control planes share the keys; only the holder
 * of the {@link ControlLeadership} publishes ({@link State#ACTIVE}), the others wait ({@link State#STANDBY})
 * and try to take the lease every {@code min(leaseTtl / 3, 1 s)}. The active one renews every
 * {@code leaseTtl / 3} and steps down when a renewal says another holder has the lease, when it could
 * not renew for a whole {@code leaseTtl}, or when the publish script refused its fencing token. A
 * standby that took the lease first runs the owner's {@code takeover} hook (re-read the
 * configuration from its source of truth and apply it), refreshes the engine from the store, then
 * opens a publisher under the new token — continuing after the stored head, so versions never go
 * backwards — and publishes at once. A takeover hook that fails (configuration database down)
 * releases the lease again: a control plane that may miss an admin change does not publish.
 *
 * <p>Thread-safe; {@link #close()} is prompt and releases a held lease.
 */
public final class ControlRole implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ControlRole.class.getName());

    /** Whether this control plane publishes. */
    public enum State {
        /** Holds the lease (or runs without one) and publishes. */
        ACTIVE,
        /** Another control plane holds the lease; this one waits to take over. */
        STANDBY;

        public String wireName() {
            return this == ACTIVE ? "active" : "standby";
        }
    }

    private final CoordinationRedis redis;
    private final ClusterSettings settings;
    private final PoolEngine engine;
    private final InstantSource wall;
    private final Ticker ticker;
    private final ControlLeadership lease;
    private final String holderId;
    private final Runnable takeover;
    private final ReentrantLock lock = new ReentrantLock();
    private final BackgroundTasks tasks = BackgroundTasks.of("control plane");
    private volatile boolean running = true;

    private volatile SnapshotPublisher publisher;
    private WorkerRegistry.Reader workers; // guarded by lock; opened on first use
    private volatile State state = State.STANDBY;
    private volatile long token;
    private volatile Instant since;
    private volatile long takeovers;
    private long lastRenewNanos;
    private PoolSnapshot lastPublished;
    /** What {@link #hold} left out of the last publication. */
    private Set<String> lastHeld = Set.of();
    /** Proxies kept out of the publications for now (unchecked nodes, design H10b). */
    private volatile PublishHold hold = PublishHold.NONE;

    private boolean failing;
    private boolean leaseFailing;

    private ControlRole(
            CoordinationRedis redis,
            ClusterSettings settings,
            PoolEngine engine,
            InstantSource wall,
            Ticker ticker,
            ControlLeadership lease,
            String holderId,
            Runnable takeover) {
        this.redis = redis;
        this.settings = settings;
        this.engine = engine;
        this.wall = wall;
        this.ticker = ticker;
        this.lease = lease;
        this.holderId = holderId;
        this.takeover = takeover;
        this.since = wall.instant();
    }

    /**
     * Opens the publisher, publishes the engine's current content, and starts watching: the only
     * control plane, without a lease (always {@link State#ACTIVE}).
     *
     * @param checkEvery how often the engine's snapshot is compared with the last published one (e.g. 200 ms)
     * @throws dev.proxypool.core.extract.StoreUnavailableException when Redis is unreachable at start
     */
    public static ControlRole start(
            RedisStoreConfig redis,
            ClusterSettings settings,
            PoolEngine engine,
            Duration checkEvery,
            InstantSource wall,
            Ticker ticker) {
        checkEvery(checkEvery);
        CoordinationRedis where = CoordinationRedis.of(redis);
        ControlRole c = new ControlRole(where, settings, engine, wall, ticker, null, null, () -> {});
        c.publisher = SnapshotPublisher.open(where, settings, wall, ticker, 0);
        c.state = State.ACTIVE;
        c.publishIfChanged();
        c.publisher.start();
        c.watchEvery(checkEvery);
        return c;
    }

    /**
     * Starts a control plane that publishes only while it holds the {@link ControlLeadership}: tries to
     * take it now (publishing at once when it did) and keeps trying in the background. Returns
     * whether it became active or standby; see {@link #state()}.
     *
     * @param holderId unique per process (no blanks), e.g. {@link dev.proxypool.sdk.lock.StageLock#newHolderId()}
     * @param takeover run before this process publishes as the new leader (re-read and apply the
     *                 configuration); an exception aborts the takeover and releases the lease
     * @throws dev.proxypool.core.extract.StoreUnavailableException when a Redis Cluster seed cannot be reached
     */
    public static ControlRole startLeased(
            CoordinationRedis redis,
            ClusterSettings settings,
            PoolEngine engine,
            Duration checkEvery,
            InstantSource wall,
            Ticker ticker,
            String holderId,
            Runnable takeover) {
        checkEvery(checkEvery);
        if (holderId == null || holderId.isBlank() || takeover == null) {
            throw new IllegalArgumentException("a leased control plane needs a holder id and a takeover hook");
        }
        ControlLeadership lease = ControlLeadership.open(redis);
        ControlRole c = new ControlRole(redis, settings, engine, wall, ticker, lease, holderId, takeover);
        c.tryLead();
        if (c.state == State.STANDBY) {
            LOG.log(
                    Level.INFO,
                    "control plane standby (lease holder: {0}); taking over within {1} ms of the lease" + " being free",
                    c.leaderText(),
                    settings.leaseTtl().toMillis() + c.acquireEvery().toMillis());
        }
        c.watchEvery(checkEvery);
        c.tasks.loop("control-lease", c::leaseLoop);
        return c;
    }

    private static void checkEvery(Duration checkEvery) {
        if (checkEvery == null || checkEvery.isNegative() || checkEvery.isZero()) {
            throw new IllegalArgumentException("checkEvery must be a positive duration, got " + checkEvery);
        }
    }

    private void watchEvery(Duration checkEvery) {
        tasks.every("snapshot-watch", checkEvery, this::publishIfChanged);
    }

    private Duration acquireEvery() {
        Duration third = settings.leaseTtl().dividedBy(3);
        return third.compareTo(Duration.ofSeconds(1)) < 0 ? third : Duration.ofSeconds(1);
    }

    private String leaderText() {
        try {
            return lease.current()
                    .map(v -> "token " + v.replaceFirst(" ", ", holder "))
                    .orElse("none");
        } catch (RuntimeException e) {
            return "unknown: " + e.getMessage();
        }
    }

    // ---- leadership ----

    private void leaseLoop() throws InterruptedException {
        while (running) {
            Thread.sleep(state == State.ACTIVE ? settings.leaseTtl().dividedBy(3) : acquireEvery());
            if (!running) {
                return;
            }
            if (state == State.ACTIVE) {
                renew();
            } else {
                tryLead();
            }
        }
    }

    /** Renews the held lease; steps down when another holds it or it could not be renewed for a whole ttl. */
    private void renew() {
        long asked = ticker.read();
        long t;
        try {
            t = lease.renew(holderId, settings.leaseTtl());
            leaseFailing = false;
        } catch (RuntimeException e) {
            if (!leaseFailing) {
                leaseFailing = true;
                LOG.log(Level.WARNING, "control-plane lease renewal failed, retrying: {0}", e.getMessage());
            }
            if (asked - lastRenewNanos >= settings.leaseTtl().toNanos()) {
                stepDown("the lease could not be renewed for "
                        + settings.leaseTtl().toMillis() + " ms");
            }
            return;
        }
        if (t != token) {
            stepDown(t == 0 ? "the lease lapsed or another control plane took it" : "the lease token changed");
        } else {
            lastRenewNanos = asked;
        }
    }

    /** Takes the lease if it is free and, when taken, becomes active (takeover hook, refresh, publish). */
    private void tryLead() {
        long asked = ticker.read();
        long t;
        try {
            t = lease.acquire(holderId, settings.leaseTtl());
            leaseFailing = false;
        } catch (RuntimeException e) {
            if (!leaseFailing) {
                leaseFailing = true;
                LOG.log(Level.WARNING, "control-plane lease unreachable, standing by: {0}", e.getMessage());
            }
            return;
        }
        if (t == 0) {
            return;
        }
        lock.lock();
        try {
            if (!running) {
                lease.release(holderId);
                return;
            }
            lastRenewNanos = asked;
            try {
                takeover.run();
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "control plane not taking over (token {0}): the configuration could not be re-read ({1});"
                                + " releasing the lease",
                        t,
                        e.getMessage());
                releaseQuietly();
                return;
            }
            engine.refresh();
            SnapshotPublisher p;
            try {
                p = SnapshotPublisher.open(redis, settings, wall, ticker, t);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "control plane not taking over: {0}", e.getMessage());
                releaseQuietly();
                return;
            }
            publisher = p;
            token = t;
            lastPublished = null;
            state = State.ACTIVE;
            since = wall.instant();
            takeovers++;
            publishLocked();
            if (state != State.ACTIVE) {
                return; // fenced at once: someone newer took it meanwhile
            }
            p.start();
            LOG.log(
                    Level.INFO,
                    "control plane active: holds the lease with fencing token {0}; published version {1}",
                    t,
                    p.version());
        } finally {
            lock.unlock();
        }
    }

    private void stepDown(String why) {
        lock.lock();
        try {
            if (state != State.ACTIVE || lease == null) {
                return;
            }
            state = State.STANDBY;
            since = wall.instant();
            SnapshotPublisher p = publisher;
            publisher = null;
            if (p != null) {
                p.close();
            }
            LOG.log(Level.WARNING, "control plane standby (was active with fencing token {0}): {1}", token, why);
            releaseQuietly();
        } finally {
            lock.unlock();
        }
    }

    private void releaseQuietly() {
        try {
            lease.release(holderId);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "control-plane lease not released ({0}); it lapses after its ttl", e.getMessage());
        }
    }

    // ---- publishing ----

    /** Publishes the engine's snapshot now if it is not the last one published; used by the watch and by owners. */
    public void publishIfChanged() {
        lock.lock();
        try {
            if (state == State.ACTIVE) {
                publishLocked();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Leaves the proxies {@code hold} names out of every publication from now on (docs/design.md
     * H10b: a registered node reaches the workers only once it passed a check); publishes at once
     * when that changes what the workers should have.
     *
     * @param hold what to keep back, asked at every check of the snapshot
     */
    public void holdBack(PublishHold hold) {
        this.hold = Objects.requireNonNull(hold, "hold");
        publishIfChanged();
    }

    private void publishLocked() {
        PoolSnapshot current = engine.snapshot();
        Set<String> held = Set.copyOf(hold.heldIds());
        if (current == lastPublished && held.equals(lastHeld)) {
            return;
        }
        List<Proxy> content = held.isEmpty()
                ? current.proxies()
                : current.proxies().stream().filter(p -> !held.contains(p.id())).toList();
        try {
            PublishReport r = publisher.publish(content);
            lastPublished = current;
            lastHeld = held;
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "snapshot publishing works again (version {0})", r.version());
            }
        } catch (SnapshotPublisher.FencedException e) {
            stepDown(e.getMessage());
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(Level.WARNING, "snapshot publish failed, retrying: {0}", e.getMessage());
            }
        }
    }

    /** The publisher while {@link State#ACTIVE}, else null. */
    public SnapshotPublisher publisher() {
        return publisher;
    }

    /** Whether this control plane publishes now. */
    public State state() {
        return state;
    }

    /** The fencing token of the lease held (0 without a lease or while standby). */
    public long fencingToken() {
        return state == State.ACTIVE ? token : 0;
    }

    /** When the current {@link #state()} began. */
    public Instant since() {
        return since;
    }

    /** How many times this process took the lease. */
    public long takeovers() {
        return takeovers;
    }

    /**
     * The worker registry as this control plane sees it (active or standby): which snapshot each
     * live worker serves. Opened on first use, closed with this.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public WorkerRegistry.Reader workers() {
        lock.lock();
        try {
            if (!running) {
                throw new IllegalStateException("the control plane is closed");
            }
            if (workers == null) {
                workers = WorkerRegistry.reader(redis);
            }
            return workers;
        } finally {
            lock.unlock();
        }
    }

    /** This process's lease holder id, or null without a lease. */
    public String holderId() {
        return holderId;
    }

    @Override
    public void close() {
        running = false;
        tasks.close(); // interrupts the lease loop; no further checks, waits for one in progress
        lock.lock();
        try {
            SnapshotPublisher p = publisher;
            publisher = null;
            if (p != null) {
                p.close();
            }
            if (workers != null) {
                workers.close();
                workers = null;
            }
            if (lease != null) {
                if (state == State.ACTIVE) {
                    releaseQuietly(); // a standby need not wait for the ttl
                }
                state = State.STANDBY;
                lease.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
