package dev.proxypool.core.capacity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The life of one unit of a proxy's capacity inside the object that holds it: {@link Reservation}
 * is one, and an object that lives exactly as long as its unit (the SDK's lease) can be another,
 * so holding a unit costs no object of its own.
 *
 * <pre>
 *   RESERVED --activate--> ACTIVE --release--> RELEASED
 *       \                                  ^
 *        `--cancel/release-----------------'   (CANCELLED counts as released)
 * </pre>
 *
 * Every transition is a CAS on the holder's state, so concurrent or repeated ends give the unit
 * back exactly once: the capacity counter can never leak nor go below zero. A unit taken by a
 * reusable {@link Reservation} can be moved into another holder ({@link #takeUnitFrom}) without
 * giving it back and taking it again.
 */
public abstract class HeldUnit {

    static final int RESERVED = 0;
    static final int ACTIVE = 1;
    static final int RELEASED = 2;
    static final int CANCELLED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(HeldUnit.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written only before the volatile write of {@link #state} that makes it RESERVED, read after reading it. */
    private CapacityCell cell;

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    /**
     * A holder of a unit the caller already took from {@code cell} (RESERVED), or, with
     * {@code null}, a holder of nothing yet (RELEASED, unbound).
     *
     * @param cell the cell the unit was acquired from, or null for an unbound holder
     */
    protected HeldUnit(CapacityCell cell) {
        this.cell = cell;
        if (cell == null) {
            STATE.setVolatile(this, RELEASED);
        }
    }

    /**
     * Makes this ended (or unbound) holder hold a new unit the caller already took with
     * {@link CapacityCell#tryAcquire()}; it is RESERVED again. Allocates nothing.
     *
     * @param acquired the cell the unit was acquired from
     * @throws IllegalStateException when this holder still holds a unit; the acquired unit is then
     *                               still the caller's to give back
     */
    protected final void rebindUnit(CapacityCell acquired) {
        if (acquired == null) {
            throw new IllegalArgumentException("reservation: capacity cell is missing");
        }
        requireEnded();
        bind(acquired);
    }

    /**
     * Moves the unit {@code from} holds into this ended (or unbound) holder without giving it back:
     * {@code from} ends (RELEASED, its cell untouched) and this one is RESERVED on the same cell.
     * Only a unit not yet activated moves (activation is counted in the cell by holder).
     * Allocates nothing.
     *
     * @param from a holder in state RESERVED, owned by the caller (nobody else may end it meanwhile)
     * @throws IllegalStateException when {@code from} is not RESERVED or this holder still holds a
     *                               unit; nothing moves then
     */
    protected final void takeUnitFrom(HeldUnit from) {
        requireEnded();
        CapacityCell moved = from.cell;
        if (!STATE.compareAndSet(from, RESERVED, RELEASED)) {
            throw new IllegalStateException("only a reserved, not yet active unit can move to another holder");
        }
        bind(moved);
    }

    private void requireEnded() {
        int s = (int) STATE.getVolatile(this);
        if (s == RESERVED || s == ACTIVE) {
            throw new IllegalStateException("reservation still holds a unit of " + cell + "; release it before reuse");
        }
    }

    private void bind(CapacityCell acquired) {
        if (cell != acquired) { // a reference store into a long-lived object costs a G1 barrier fence
            cell = acquired;
        }
        // the owner is the only writer while the holder is ended: a release store publishes the
        // cell to any thread that then reads the state (all reads of it are volatile), without a fence
        STATE.setRelease(this, RESERVED);
    }

    /**
     * The upstream connection is up: the unit now carries traffic.
     *
     * @return true if it moved from RESERVED to ACTIVE; false if it was already active or ended
     */
    protected final boolean activateUnit() {
        // Count first, then flip: a concurrent release that sees ACTIVE always finds the count it
        // decrements, so the cell's active() never reads below zero.
        CapacityCell c = cell;
        if (c == null) {
            return false; // unbound: nothing to activate
        }
        c.activated();
        if (STATE.compareAndSet(this, RESERVED, ACTIVE)) {
            return true;
        }
        c.deactivated();
        return false;
    }

    /**
     * Ends the unit's life: gives it back exactly once, whichever thread calls first.
     *
     * @param cancelled true for a failed attempt (CANCELLED), false for a normal end (RELEASED)
     * @return true only for the call that actually gave the unit back
     */
    protected final boolean endUnit(boolean cancelled) {
        int terminal = cancelled ? CANCELLED : RELEASED;
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

    /**
     * Where the unit is now: 0 RESERVED, 1 ACTIVE, 2 RELEASED, 3 CANCELLED (the order of
     * {@link Reservation.State}).
     *
     * @return the current state's ordinal; a terminal state never changes again
     */
    protected final int unitState() {
        return (int) STATE.getVolatile(this);
    }

    /**
     * Whether the unit is still taken.
     *
     * @return true while RESERVED or ACTIVE
     */
    protected final boolean holdsUnit() {
        int s = (int) STATE.getVolatile(this);
        return s == RESERVED || s == ACTIVE;
    }

    /**
     * The ledger the unit was taken from.
     *
     * @return the proxy's cell on this worker; null only for a never-bound holder
     */
    protected final CapacityCell unitCell() {
        return cell;
    }
}
