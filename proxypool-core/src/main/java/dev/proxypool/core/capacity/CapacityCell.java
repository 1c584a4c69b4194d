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

    public CapacityCell(int limit) {
        setLimit(limit);
    }

    /** Changes the limit (a new snapshot with a new max concurrency or worker share). */
    public void setLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("capacity limit must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    /** Reserved or active holders right now. */
    public int inFlight() {
        return (int) IN_FLIGHT.getVolatile(this);
    }

    /** Holders whose reservation became active (connected upstream). */
    public int active() {
        return (int) ACTIVE.getVolatile(this);
    }

    /** Free units right now (a hint: it may change the next instant). */
    public int available() {
        return Math.max(0, limit - inFlight());
    }

    /** Takes one unit if one is free; never exceeds the limit. */
    public boolean tryAcquire() {
        for (;;) {
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

    /** Gives back a unit taken by {@link #tryAcquire()}. Calling it without a matching acquire is a bug. */
    public void releaseAcquired() {
        int after = (int) IN_FLIGHT.getAndAdd(this, -1) - 1;
        if (after < 0) {
            IN_FLIGHT.getAndAdd(this, 1);
            throw new IllegalStateException("capacity released more often than acquired");
        }
    }

    /** Takes one unit as a {@link Reservation}, or returns {@code null} when the proxy is full. */
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
