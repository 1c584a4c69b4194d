package dev.proxypool.sdk.engine;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Tells the pool store what this worker knows about health, so extraction hands out HEALTHY proxies
 * only and honours {@code maxHealthAge} (docs/design.md#extraction, E11). Health lives in the
 * worker's runtimes; the store, shared by every worker, cannot read it.
 *
 * <ul>
 *   <li>A proxy that leaves HEALTHY is held out of extraction ({@link PoolStore#markUnhealthy}) for
 *       {@link #HOLD}, renewed every {@link #RENEW} while it stays out, so a hold of a worker that
 *       died lapses; one that comes back is released at once ({@link PoolStore#markHealthy}).</li>
 *   <li>The last check of every runtime goes to {@link PoolStore#markChecked}, rounded down to the
 *       second (never fresher than it was).</li>
 * </ul>
 *
 * <p>Transitions are queued by id (the health listener must not block) and sent by the next
 * {@link #sync}: before each extraction of this process, so what this worker saw before the call is
 * in the store; {@link #renew} (in the background every {@link #RENEW}) renews the holds and sends
 * the checks. A failed send keeps its ids queued.
 */
final class HealthSync {

    private static final System.Logger LOG = System.getLogger(HealthSync.class.getName());

    /** How long a hold lasts unless renewed. */
    static final Duration HOLD = Duration.ofSeconds(60);
    /** How often holds are renewed and checks sent. */
    static final Duration RENEW = Duration.ofSeconds(5);
    /** The freshest checks an extraction with {@code maxHealthAge} waits for: at most this old. */
    private static final long CHECKS_EVERY_NANOS = Duration.ofSeconds(1).toNanos();

    private final PoolStore store;
    private final RuntimeRegistry registry;
    private final Ticker ticker;
    private final InstantSource wall;
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    /** Per id, the ticker reading of the last check sent to the store. */
    private final Map<String, Long> checkSent = new ConcurrentHashMap<>();

    private final ReentrantLock lock = new ReentrantLock();
    private boolean renewed;
    private long lastRenewNanos;
    private boolean checksSent;
    private long lastChecksNanos;

    HealthSync(PoolStore store, RuntimeRegistry registry, Ticker ticker, InstantSource wall) {
        this.store = store;
        this.registry = registry;
        this.ticker = ticker;
        this.wall = wall;
    }

    /** A proxy entered or left HEALTHY (health listener thread: only queues). */
    void changed(String id) {
        changed.add(id);
    }

    /** A proxy left the pool for good (extracted): nothing of it is sent any more. */
    void forget(String id) {
        changed.remove(id);
        checkSent.remove(id);
    }

    /**
     * Sends the queued transitions before an extraction, and the checks when {@code checks} and
     * they are older than a second.
     *
     * @param checks whether the caller needs fresh checks in the store (an extraction with {@code maxHealthAge})
     */
    void sync(boolean checks) {
        sync(false, checks);
    }

    /**
     * The periodic sync (every {@link #RENEW}, off the request path): the queued transitions, every
     * hold renewed and the checks sent.
     */
    void renew() {
        sync(true, false);
    }

    private void sync(boolean periodic, boolean checks) {
        lock.lock();
        try {
            long now = ticker.read();
            // renewing walks every runtime and sends a batch per thousand ids: never on a request's path
            boolean renew = periodic && (!renewed || now - lastRenewNanos >= RENEW.toNanos() / 2);
            boolean sendChecks = renew || (checks && (!checksSent || now - lastChecksNanos >= CHECKS_EVERY_NANOS));
            if (changed.isEmpty() && !renew && !sendChecks) {
                return;
            }
            Instant wallNow = wall.instant();
            List<String> held = new ArrayList<>();
            List<String> healthy = new ArrayList<>();
            List<String> drained = new ArrayList<>(changed);
            changed.removeAll(drained);
            try {
                for (String id : drained) {
                    ProxyRuntime rt = registry.find(id);
                    if (rt != null && rt.health().state() == HealthState.HEALTHY) {
                        healthy.add(id);
                    } else if (rt != null && !renew) {
                        held.add(id);
                    }
                }
                if (renew) {
                    for (ProxyRuntime rt : registry.all()) {
                        if (rt.health().state() != HealthState.HEALTHY) {
                            held.add(rt.proxyId());
                        }
                    }
                }
                if (!held.isEmpty()) {
                    store.markUnhealthy(held, wallNow.plus(HOLD));
                }
                if (!healthy.isEmpty()) {
                    store.markHealthy(healthy);
                }
            } catch (RuntimeException e) {
                changed.addAll(drained); // sent by the next sync
                LOG.log(System.Logger.Level.WARNING, "could not tell the store about health changes: " + e);
                return;
            }
            if (renew) {
                renewed = true;
                lastRenewNanos = now;
                checkSent.keySet().removeIf(id -> registry.find(id) == null);
            }
            if (sendChecks) {
                sendChecks(now, wallNow);
                checksSent = true;
                lastChecksNanos = now;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Every check newer than the one sent, grouped by its wall-clock second (rounded down). */
    private void sendChecks(long now, Instant wallNow) {
        TreeMap<Instant, List<String>> bySecond = new TreeMap<>();
        Map<String, Long> sending = new HashMap<>();
        for (ProxyRuntime rt : registry.all()) {
            long last = rt.health().lastCheckedNanos();
            Long sent = checkSent.get(rt.proxyId());
            if (sent == null || sent != last) {
                Instant at = wallNow.minusNanos(Math.max(0, now - last)).truncatedTo(ChronoUnit.SECONDS);
                bySecond.computeIfAbsent(at, k -> new ArrayList<>()).add(rt.proxyId());
                sending.put(rt.proxyId(), last);
            }
        }
        try {
            for (Map.Entry<Instant, List<String>> e : bySecond.entrySet()) {
                store.markChecked(e.getValue(), e.getKey());
            }
            checkSent.putAll(sending);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not send health checks to the store: " + e);
        }
    }
}
