package dev.proxypool.core.capacity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One proxy's concurrency ledger on this worker: how many requests/tunnels hold it now
 * ({@code inFlight}, reserved or active) against its limit.
 *
 * <p>Lock-free: a reservation is a CAS loop that never lets {@code inFlight} exceed the limit
 * (a plain {@code incrementAndGet} followed by a check-and-undo would briefly overshoot and make
 * concurrent readers refuse capacity that exists). Lowering the limit below the current in-flight
 * count never revokes holders; new reservations wait until it drains below the new limit.
 *
 * <p>The raw {@link #tryAcquire()}/{@link #releaseAcquired()} pair is for callers that track
 * exactly-once release themselves; everyone else uses {@link Reservation}, which does.
 */
public final class CapacityCell {

    private static final VarHandle IN_FLIGHT;
    private static final VarHandle ACTIVE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            IN_FLIGHT = l.findVarHandle(CapacityCell.class, "inFlight", int.class);
            ACTIVE = l.findVarHandle(CapacityCell.class, "active", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int limit;

    @SuppressWarnings("unused") // accessed through IN_FLIGHT
    private volatile int inFlight;

    @SuppressWarnings("unused") // accessed through ACTIVE
    private volatile int active;

    /**
     * An empty ledger.
     *
     * @param limit the most holders at once, at least 1
     * @throws IllegalArgumentException if {@code limit} is below 1
     */
    public CapacityCell(int limit) {
        setLimit(limit);
    }

    /**
     * Changes the limit (a new snapshot with a new max concurrency or worker share). Current holders
     * keep their units even when the new limit is below {@link #inFlight()}.
     *
     * @param limit the new most holders at once, at least 1
     * @throws IllegalArgumentException if {@code limit} is below 1
     */
    public void setLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("capacity limit must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    /**
     * The most holders at once.
     *
     * @return the current limit, at least 1
     */
    public int limit() {
        return limit;
    }

    /**
     * Reserved or active holders right now.
     *
     * @return a count in [0, limit] unless the limit was just lowered below it
     */
    public int inFlight() {
        return (int) IN_FLIGHT.getVolatile(this);
    }

    /**
     * Holders whose reservation became active (connected upstream).
     *
     * @return a count, at most {@link #inFlight()} once concurrent transitions settle
     */
    public int active() {
        return (int) ACTIVE.getVolatile(this);
    }

    /**
     * Free units right now (a hint: it may change the next instant).
     *
     * @return {@code max(0, limit - inFlight)}
     */
    public int available() {
        return Math.max(0, limit - inFlight());
    }

    /**
     * Takes one unit if one is free; never exceeds the limit.
     *
     * @return true if a unit was taken: the caller must {@link #releaseAcquired()} it exactly once
     */
    public boolean tryAcquire() {
        for (; ; ) {
            int current = (int) IN_FLIGHT.getVolatile(this);
            if (current >= limit) {
                return false;
            }
            if (IN_FLIGHT.weakCompareAndSet(this, current, current + 1)) {
                return true;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Gives back a unit taken by {@link #tryAcquire()}. Calling it without a matching acquire is a bug.
     *
     * @throws IllegalStateException if nothing is held (the count is left unchanged)
     */
    public void releaseAcquired() {
        int after = (int) IN_FLIGHT.getAndAdd(this, -1) - 1;
        if (after < 0) {
            IN_FLIGHT.getAndAdd(this, 1);
            throw new IllegalStateException("capacity released more often than acquired");
        }
    }

    /**
     * Takes one unit as a {@link Reservation}, which gives it back exactly once however it ends.
     *
     * @return a {@link Reservation.State#RESERVED RESERVED} reservation, or {@code null} when the
     *     proxy is full on this worker
     */
    public Reservation tryReserve() {
        return tryAcquire() ? new Reservation(this) : null;
    }

    void activated() {
        ACTIVE.getAndAdd(this, 1);
    }

    void deactivated() {
        ACTIVE.getAndAdd(this, -1);
    }

    @Override
    public String toString() {
        return "CapacityCell[" + inFlight() + "/" + limit + ", active=" + active() + "]";
    }
}
