package dev.proxypool.core.capacity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One unit of a proxy's capacity, held for one request or tunnel.
 *
 * <pre>
 *   RESERVED --activate()--> ACTIVE --release()--> RELEASED
 *       \                                   ^
 *        `--cancel()/release()--------------'   (CANCELLED counts as released)
 * </pre>
 *
 * Every transition is a CAS on this object's state, so concurrent or repeated {@code release()}
 * and {@code cancel()} calls give the unit back exactly once: the capacity counter can never leak
 * nor go below zero, whatever path a request takes.
 */
public final class Reservation {

    /** Where a reservation is in its life; the two terminal states both mean the unit is back. */
    public enum State {
        /** Holding a unit; the upstream connection is not up yet. */
        RESERVED,
        /** Holding a unit and carrying traffic: counted in {@link CapacityCell#active()}. */
        ACTIVE,
        /** Ended normally; the unit is back. Terminal. */
        RELEASED,
        /** Ended by a failed attempt; the unit is back. Terminal. */
        CANCELLED
    }

    private static final int RESERVED = 0;
    private static final int ACTIVE = 1;
    private static final int RELEASED = 2;
    private static final int CANCELLED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Reservation.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CapacityCell cell;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    Reservation(CapacityCell cell) {
        this.cell = cell;
    }

    /**
     * The upstream connection is up: the reservation now carries traffic.
     *
     * @return true if it moved from RESERVED to ACTIVE; false if it was already active or ended
     */
    public boolean activate() {
        // Count first, then flip: a concurrent release that sees ACTIVE always finds the count it
        // decrements, so the cell's active() never reads below zero.
        cell.activated();
        if (STATE.compareAndSet(this, RESERVED, ACTIVE)) {
            return true;
        }
        cell.deactivated();
        return false;
    }

    /**
     * The request/tunnel ended: give the unit back. Safe to call from any thread, any number of times.
     *
     * @return true only for the call that actually gave the unit back
     */
    public boolean release() {
        return end(RELEASED);
    }

    /**
     * The attempt failed before or while connecting: give the unit back. Same exactly-once rule as
     * {@link #release()}; which of the two ends it decides the terminal state.
     *
     * @return true only for the call that actually gave the unit back
     */
    public boolean cancel() {
        return end(CANCELLED);
    }

    private boolean end(int terminal) {
        for (;;) {
            int s = (int) STATE.getVolatile(this);
            if (s == RELEASED || s == CANCELLED) {
                return false;
            }
            if (STATE.compareAndSet(this, s, terminal)) {
                if (s == ACTIVE) {
                    cell.deactivated();
                }
                cell.releaseAcquired();
                return true;
            }
        }
    }

    private static final State[] STATES = State.values();

    /**
     * Where the reservation is now.
     *
     * @return the current state; a terminal state never changes again
     */
    public State state() {
        return STATES[(int) STATE.getVolatile(this)];
    }

    /**
     * Whether the unit is still taken.
     *
     * @return true while RESERVED or ACTIVE
     */
    public boolean isHeld() {
        int s = (int) STATE.getVolatile(this);
        return s == RESERVED || s == ACTIVE;
    }

    /**
     * The ledger the unit was taken from.
     *
     * @return the proxy's cell on this worker
     */
    public CapacityCell cell() {
        return cell;
    }
}
