package dev.proxypool.core.snapshot;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The worker's current {@link PoolSnapshot}: one reference, swapped whole.
 *
 * <p>Why this is enough for thread-safety: a snapshot is a deeply immutable object whose fields are
 * all final, so any thread that reads the reference sees the snapshot completely built (final-field
 * semantics plus the volatile read of {@link AtomicReference#get()}). Readers never lock: a pick
 * reads {@link #current()} once and works on that snapshot to the end, while a concurrent
 * {@link #publish} only affects later picks. Capacity and health live in long-lived runtimes shared
 * by consecutive snapshots, so nothing is lost on a swap.
 *
 * <p>Versions only move forward: publishing a version that is not above the current one is refused
 * (a delayed or duplicate delivery), so readers never see the pool go back in time.
 */
public final class LiveSnapshot {

    private final AtomicReference<PoolSnapshot> current;

    /**
     * Starts with a first snapshot, typically {@link PoolSnapshot#empty}.
     *
     * @param initial the snapshot served until the first publish; not null
     */
    public LiveSnapshot(PoolSnapshot initial) {
        this.current = new AtomicReference<>(Objects.requireNonNull(initial, "initial"));
    }

    /**
     * The snapshot to pick from now. One volatile read.
     *
     * @return the current snapshot, never null
     */
    public PoolSnapshot current() {
        return current.get();
    }

    /**
     * Swaps in {@code next} if its version is above the current one.
     *
     * @return true if {@code next} is now current; false if a same or newer version already was
     * @param next the new snapshot; not null
     */
    public boolean publish(PoolSnapshot next) {
        Objects.requireNonNull(next, "next");
        for (; ; ) {
            PoolSnapshot now = current.get();
            if (next.version() <= now.version()) {
                return false;
            }
            if (current.compareAndSet(now, next)) {
                return true;
            }
        }
    }

    /**
     * The current snapshot's version.
     *
     * @return {@code current().version()}
     */
    public long version() {
        return current.get().version();
    }
}
