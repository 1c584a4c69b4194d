package dev.proxypool.core.sequential;

/**
 * Hears every change of a sequential routing's state, for metrics, audit and persistence.
 * Called outside the board's lock, in the order the changes were made (possibly on the thread of
 * another caller of the board); a listener that throws is logged and does not disturb the board.
 * Must not block for long: it delays the caller that delivers.
 */
@FunctionalInterface
public interface SequentialListener {

    /** A listener that ignores every change. */
    SequentialListener NONE = (before, after, transition) -> {};

    /**
     * One change, already applied.
     *
     * @param before     the state before the change
     * @param after      the state after it ({@code after.version() == before.version() + 1})
     * @param transition true for a position change (advance, wrap, exhaustion, a {@code stayLast}
     *                   threshold crossing, admin or config action), false when only the
     *                   consecutive-Empty count moved
     */
    void onChange(SequentialState before, SequentialState after, boolean transition);
}
