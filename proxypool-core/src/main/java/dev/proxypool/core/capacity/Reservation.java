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
 *
 * <p>Reuse: a hot path that picks many times from one thread or connection can own one reservation
 * made by {@link #unbound()} and {@link #rebind} it to each new unit once the previous one has
 * ended, so a pick allocates nothing. Rebinding a reservation that still holds a unit throws; a
 * reference kept from an earlier binding must not be used to release the new one (the owner of a
 * reusable reservation is the only one that ends it).
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

    /** Written only before the volatile write of {@link #state} that makes it RESERVED, read after reading it. */
    private CapacityCell cell;

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    Reservation(CapacityCell cell) {
        this.cell = cell;
    }

    /**
     * Wraps a unit the caller already took with {@link CapacityCell#tryAcquire()}: the returned
     * reservation is RESERVED and gives that unit back exactly once.
     *
     * @param cell the cell the unit was acquired from
     * @return a new reservation holding that unit
     */
    public static Reservation adopt(CapacityCell cell) {
        if (cell == null) {
            throw new IllegalArgumentException("reservation: capacity cell is missing");
        }
        return new Reservation(cell);
    }

    /**
     * A reusable reservation that holds nothing yet (state {@link State#RELEASED}, no cell) until
     * {@link #rebind} gives it a unit.
     *
     * @return a new unbound reservation
     */
    public static Reservation unbound() {
        Reservation r = new Reservation(null);
        STATE.setVolatile(r, RELEASED);
        return r;
    }

    /**
     * Makes this ended (or unbound) reservation hold a new unit the caller already took with
     * {@link CapacityCell#tryAcquire()}; it is RESERVED again. Allocates nothing.
     *
     * @param acquired the cell the unit was acquired from
     * @throws IllegalStateException when this reservation still holds a unit (release it first);
     *                               the acquired unit is then still the caller's to give back
     */
    public void rebind(CapacityCell acquired) {
        if (acquired == null) {
            throw new IllegalArgumentException("reservation: capacity cell is missing");
        }
        int s = (int) STATE.getVolatile(this);
        if (s == RESERVED || s == ACTIVE) {
            throw new IllegalStateException("reservation still holds a unit of " + cell + "; release it before reuse");
        }
        if (cell != acquired) { // a reference store into a long-lived object costs a G1 barrier fence
            cell = acquired;
        }
        // the owner is the only writer while the reservation is ended: a release store publishes the
        // cell to any thread that then reads the state (all reads of it are volatile), without a fence
        STATE.setRelease(this, RESERVED);
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
        for (; ; ) {
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
     * The ledger the unit was taken from; null only for a never-bound {@link #unbound()} one.
     *
     * @return the proxy's cell on this worker
     */
    public CapacityCell cell() {
        return cell;
    }
}
