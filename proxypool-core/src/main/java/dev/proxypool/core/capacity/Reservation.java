package dev.proxypool.core.capacity;

/**
 * One unit of a proxy's capacity, held for one request or tunnel.
 *
 * <pre>
 *   RESERVED --activate()--> ACTIVE --release()--> RELEASED
 *       \                                   ^
 *        `--cancel()/release()--------------'   (CANCELLED counts as released)
 * </pre>
 *
 * Every transition is a CAS on this object's state ({@link HeldUnit}), so concurrent or repeated
 * {@code release()} and {@code cancel()} calls give the unit back exactly once: the capacity counter
 * can never leak nor go below zero, whatever path a request takes.
 *
 * <p>Reuse: a hot path that picks many times from one thread or connection can own one reservation
 * made by {@link #unbound()} and {@link #rebind} it to each new unit once the previous one has
 * ended, so a pick allocates nothing. Rebinding a reservation that still holds a unit throws; a
 * reference kept from an earlier binding must not be used to release the new one (the owner of a
 * reusable reservation is the only one that ends it).
 */
public final class Reservation extends HeldUnit {

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

    Reservation(CapacityCell cell) {
        super(cell);
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
        return new Reservation(null);
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
        rebindUnit(acquired);
    }

    /**
     * The upstream connection is up: the reservation now carries traffic.
     *
     * @return true if it moved from RESERVED to ACTIVE; false if it was already active or ended
     */
    public boolean activate() {
        return activateUnit();
    }

    /**
     * The request/tunnel ended: give the unit back. Safe to call from any thread, any number of times.
     *
     * @return true only for the call that actually gave the unit back
     */
    public boolean release() {
        return endUnit(false);
    }

    /**
     * The attempt failed before or while connecting: give the unit back. Same exactly-once rule as
     * {@link #release()}; which of the two ends it decides the terminal state.
     *
     * @return true only for the call that actually gave the unit back
     */
    public boolean cancel() {
        return endUnit(true);
    }

    private static final State[] STATES = State.values();

    /**
     * Where the reservation is now.
     *
     * @return the current state; a terminal state never changes again
     */
    public State state() {
        return STATES[unitState()];
    }

    /**
     * Whether the unit is still taken.
     *
     * @return true while RESERVED or ACTIVE
     */
    public boolean isHeld() {
        return holdsUnit();
    }

    /**
     * The ledger the unit was taken from; null only for a never-bound {@link #unbound()} one.
     *
     * @return the proxy's cell on this worker
     */
    public CapacityCell cell() {
        return unitCell();
    }
}
