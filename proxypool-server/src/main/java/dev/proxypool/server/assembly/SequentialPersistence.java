package dev.proxypool.server.assembly;

import dev.proxypool.core.sequential.SequentialListener;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.coordination.SharedSequentialStates;
import dev.proxypool.server.persistence.ConfigStore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Stores every change of this process's sequential board (docs/design.md#sequential-switching, Q6):
 * an Empty-threshold move, an admin action, a configuration change, a count. To the configuration
 * store (PostgreSQL when configured, so the position survives a restart) and, in a cluster, to the
 * shared Redis ({@link SharedSequentialStates}: a restarted or standby control plane and the
 * workers read it there).
 *
 * <p>The board's listener must not block its caller (the pipeline's fetch round), so changes are
 * kept per routing (the latest wins) and written by one background task
 * ({@link BackgroundTasks}, thread {@code sequential-persistence}); a failed write (the
 * database or Redis down) is retried every second with the latest state, and {@link #close()}
 * writes what is still pending once.
 */
public final class SequentialPersistence implements SequentialListener, AutoCloseable {

    private static final Logger LOG = System.getLogger(SequentialPersistence.class.getName());
    private static final long RETRY_MILLIS = 1_000;

    private final ConfigStore store;
    private final SharedSequentialStates shared;
    private final ConcurrentHashMap<String, SequentialState> pending = new ConcurrentHashMap<>();
    private final Semaphore signal = new Semaphore(0);
    private final BackgroundTasks tasks = BackgroundTasks.of("sequential persistence");
    private volatile boolean retrying;

    /**
     * @param store  the configuration store
     * @param shared the cluster's Redis, or {@code null} when this process shares no store
     */
    public SequentialPersistence(ConfigStore store, SharedSequentialStates shared) {
        this.store = store;
        this.shared = shared;
        tasks.loop("sequential-persistence", this::run);
    }

    @Override
    public void onChange(SequentialState before, SequentialState after, boolean transition) {
        pending.put(after.routing(), after);
        signal.release();
    }

    private void run() throws InterruptedException {
        boolean failing = false;
        while (true) {
            signal.tryAcquire(failing ? RETRY_MILLIS : Long.MAX_VALUE, TimeUnit.MILLISECONDS);
            signal.drainPermits();
            failing = !writePending(failing);
            retrying = failing;
        }
    }

    /** Whether the last write failed and is being retried (the operator's log says so once). */
    boolean retrying() {
        return retrying;
    }

    /** Writes the pending states; true when written (or nothing was pending). */
    private boolean writePending(boolean wasFailing) {
        Map<String, SequentialState> batch = new HashMap<>(pending);
        if (batch.isEmpty()) {
            return true;
        }
        List<SequentialState> states = new ArrayList<>(batch.values());
        try {
            store.saveSequential(states);
            if (shared != null) {
                shared.save(states);
            }
        } catch (RuntimeException e) {
            if (!wasFailing) {
                LOG.log(
                        Level.WARNING,
                        "sequential positions not stored, retrying every second (they stay in force here): "
                                + e.getMessage());
            }
            return false;
        }
        // a newer state that arrived meanwhile stays pending for the next turn
        batch.forEach(pending::remove);
        if (wasFailing) {
            LOG.log(Level.INFO, "sequential positions stored again");
        }
        return true;
    }

    /**
     * The positions to restore at start (or before a standby control plane takes over): per
     * routing the newer (higher version) of the configuration store's and the cluster's.
     *
     * @param shared the cluster's Redis, or {@code null}; unreadable, it is left out (logged)
     */
    public static List<SequentialState> saved(ConfigStore store, SharedSequentialStates shared) {
        Map<String, SequentialState> newest = new HashMap<>();
        for (SequentialState s : store.sequentialStates()) {
            newest.put(s.routing(), s);
        }
        if (shared != null) {
            try {
                for (SequentialState s : shared.load()) {
                    newest.merge(s.routing(), s, (a, b) -> b.version() > a.version() ? b : a);
                }
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "sequential positions not read from Redis, using the database's: " + e.getMessage());
            }
        }
        return List.copyOf(newest.values());
    }

    @Override
    public void close() {
        tasks.close();
        writePending(false); // the last moves, once: a restart must find them
        if (shared != null) {
            shared.close();
        }
    }
}
