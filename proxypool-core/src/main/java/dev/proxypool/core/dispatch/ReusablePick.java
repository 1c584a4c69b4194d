package dev.proxypool.core.dispatch;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;

/**
 * A caller-owned, reusable pick result, filled by
 * {@link Dispatcher#pick(dev.proxypool.core.snapshot.PoolSnapshot, PickRequest, long, ReusablePick)}:
 * the allocation-free form of {@link Picked} / {@link NoCandidate}. It owns one reusable
 * {@link Reservation}, rebound to each picked proxy's unit, so a pick allocates nothing at all.
 *
 * <p>Use: one instance per thread or per connection (not thread-safe: one pick at a time). After a
 * successful pick the caller owns {@link #reservation()} exactly as with {@link Picked}
 * (activate, then release or cancel) and must end it before the next pick into this instance;
 * picking while it is still held throws {@link IllegalStateException} and reserves nothing. The
 * reservation may be released from another thread (e.g. the one closing a tunnel) as long as that
 * happens before the owner's next pick.
 */
public final class ReusablePick {

    private final Reservation reservation = Reservation.unbound();
    private int slot = -1;
    private Proxy proxy;
    private ProxyRuntime runtime;
    private Admission admission;
    private NoCandidate failure;

    /** An empty result: neither picked nor failed yet, its reservation unbound. */
    public ReusablePick() {
    }

    void succeed(int slot, Proxy proxy, ProxyRuntime runtime, Admission admission) {
        this.slot = slot;
        this.proxy = proxy;
        this.runtime = runtime;
        this.admission = admission;
        this.failure = null;
    }

    void fail(NoCandidate reason) {
        this.slot = -1;
        this.proxy = null;
        this.runtime = null;
        this.admission = null;
        this.failure = reason;
    }

    /**
     * Whether the last pick reserved a proxy.
     *
     * @return true after a successful pick, false after a failed one or before the first
     */
    public boolean picked() {
        return proxy != null;
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
        return proxy;
    }

    /**
     * The picked proxy's long-lived capacity and health.
     *
     * @return the runtime of the last successful pick
     * @throws IllegalStateException when the last pick failed
     */
    public ProxyRuntime runtime() {
        requirePicked();
        return runtime;
    }

    /**
     * How the picked proxy's health admitted the request: report the outcome with it.
     *
     * @return {@link Admission#ADMITTED} or {@link Admission#PROBE}, never DENIED
     * @throws IllegalStateException when the last pick failed
     */
    public Admission admission() {
        requirePicked();
        return admission;
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
        if (proxy == null) {
            throw new IllegalStateException(failure == null ? "nothing picked yet" : "the pick failed: " + failure.reason());
        }
    }

    @Override
    public String toString() {
        return proxy != null ? "ReusablePick[slot " + slot + ", " + admission + ", " + reservation.state() + "]"
                : "ReusablePick[" + (failure == null ? "empty" : failure.reason().wireName()) + "]";
    }
}
