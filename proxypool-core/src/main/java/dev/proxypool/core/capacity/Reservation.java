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

    public enum State { RESERVED, ACTIVE, RELEASED, CANCELLED }

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

    /** The upstream connection is up: the reservation now carries traffic. False if already ended. */
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

    /** The request/tunnel ended: give the unit back. True only for the call that actually released it. */
    public boolean release() {
        return end(RELEASED);
    }

    /** The attempt failed before or while connecting: give the unit back. Same exactly-once rule. */
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

    public State state() {
        return STATES[(int) STATE.getVolatile(this)];
    }

    public boolean isHeld() {
        int s = (int) STATE.getVolatile(this);
        return s == RESERVED || s == ACTIVE;
    }

    public CapacityCell cell() {
        return cell;
    }
}
