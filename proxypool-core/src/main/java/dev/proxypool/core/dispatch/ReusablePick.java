package dev.proxypool.core.dispatch;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * A caller-owned, reusable pick result, filled by
 * {@link Dispatcher#pick(PoolSnapshot, PickRequest, long, ReusablePick)}:
 * the allocation-free form of {@link Picked} / {@link NoCandidate}. It owns one reusable
 * {@link Reservation}, rebound to each picked proxy's unit, so a pick allocates nothing at all.
 *
 * <p>Use: one instance per thread or per connection (not thread-safe: one pick at a time). After a
 * successful pick the caller owns {@link #reservation()} exactly as with {@link Picked}
 * (activate, then release or cancel) and must end it before the next pick into this instance;
 * picking while it is still held throws {@link IllegalStateException} and reserves nothing. The
 * reservation may be released from another thread (e.g. the one closing a tunnel) as long as that
 * happens before the owner's next pick.
 *
 * <p>Why it keeps a slot and not the proxy: a long-lived result sits in the old generation, and
 * under G1 every reference store into an old object from another region costs a StoreLoad fence
 * in the write barrier, several per pick if it stored proxy, runtime and admission, which cost more
 * than the allocation saved. A pick stores only {@code int}s here (and the snapshot when it
 * changes); the proxy and runtime are read from the snapshot on demand. So a result keeps the
 * snapshot of its last successful pick reachable until a pick from a newer one: hold one per thread
 * or per busy connection, not one per idle object.
 */
public final class ReusablePick {

    private final Reservation reservation = Reservation.unbound();
    private PoolSnapshot snapshot;
    private int slot = -1;
    private boolean probe;
    private NoCandidate failure;

    /** An empty result: neither picked nor failed yet, its reservation unbound. */
    public ReusablePick() {}

    /** Conditional reference stores: in steady state a pick stores nothing but primitives. */
    void succeed(PoolSnapshot from, int slot, boolean probe) {
        if (snapshot != from) {
            snapshot = from;
        }
        this.slot = slot;
        this.probe = probe;
        if (failure != null) {
            failure = null;
        }
    }

    void fail(NoCandidate reason) {
        this.slot = -1;
        this.failure = reason;
    }

    /**
     * Whether the last pick reserved a proxy.
     *
     * @return true after a successful pick, false after a failed one or before the first
     */
    public boolean picked() {
        return slot >= 0;
    }

    /**
     * Why the last pick found nothing.
     *
     * @return the shared {@link NoCandidate} of the last failed pick, or null after a successful one
     *         (and before the first pick)
     */
    public NoCandidate failure() {
        return failure;
    }

    /**
     * The picked proxy's slot in the snapshot it was picked from (valid in that snapshot only).
     *
     * @return the slot of the last successful pick
     * @throws IllegalStateException when the last pick failed
     */
    public int slot() {
        requirePicked();
        return slot;
    }

    /**
     * The picked proxy.
     *
     * @return the proxy of the last successful pick
     * @throws IllegalStateException when the last pick failed
     */
    public Proxy proxy() {
        requirePicked();
        return snapshot.proxy(slot);
    }

    /**
     * The picked proxy's long-lived capacity and health.
     *
     * @return the runtime of the last successful pick
     * @throws IllegalStateException when the last pick failed
     */
    public ProxyRuntime runtime() {
        requirePicked();
        return snapshot.runtime(slot);
    }

    /**
     * How the picked proxy's health admitted the request: report the outcome with it.
     *
     * @return {@link Admission#ADMITTED} or {@link Admission#PROBE}, never DENIED
     * @throws IllegalStateException when the last pick failed
     */
    public Admission admission() {
        requirePicked();
        return probe ? Admission.PROBE : Admission.ADMITTED;
    }

    /**
     * The unit of capacity held for the request: the same instance after every pick, bound to the
     * last picked proxy's cell. Ended (released, cancelled or never bound) after a failed pick.
     *
     * @return this result's reusable reservation
     */
    public Reservation reservation() {
        return reservation;
    }

    private void requirePicked() {
        if (slot < 0) {
            throw new IllegalStateException(
                    failure == null ? "nothing picked yet" : "the pick failed: " + failure.reason());
        }
    }

    @Override
    public String toString() {
        return slot >= 0
                ? "ReusablePick[slot " + slot + ", " + (probe ? Admission.PROBE : Admission.ADMITTED) + ", "
                        + reservation.state() + "]"
                : "ReusablePick["
                        + (failure == null ? "empty" : failure.reason().wireName()) + "]";
    }
}
