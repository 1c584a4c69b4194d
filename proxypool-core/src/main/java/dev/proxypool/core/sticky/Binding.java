package dev.proxypool.core.sticky;

/**
 * One session's binding to a proxy. Immutable except for the last-use time, which lookups refresh,
 * and the record of the session's recent outcomes on the proxy (docs/design.md#sticky-sessions, S8),
 * which decides when the session moves off it. All times are ticker nanoseconds.
 */
final class Binding {

    final String proxyId;
    final long createdNanos;
    /** min(created + lifetime, proxy deadline). */
    final long expiresNanos;
    /** True when the proxy's deadline, not the lifetime, set {@link #expiresNanos}. */
    final boolean cappedByProxy;

    volatile long lastUsedNanos;

    /** Set once the session's outcomes called for a move: the next lookup drops the binding. */
    volatile boolean abandoned;

    /** Failed requests in a row on the proxy; guarded by this. */
    private int streak;
    /** The last outcomes, newest in bit 0, 1 = failed; guarded by this. */
    private long outcomes;
    /** How many of {@link #outcomes} are filled (up to the window); guarded by this. */
    private int recorded;

    Binding(String proxyId, long createdNanos, long expiresNanos, boolean cappedByProxy) {
        this.proxyId = proxyId;
        this.createdNanos = createdNanos;
        this.expiresNanos = expiresNanos;
        this.cappedByProxy = cappedByProxy;
        this.lastUsedNanos = createdNanos;
    }

    boolean expired(long now) {
        return now - expiresNanos >= 0;
    }

    boolean idle(long now, long idleNanos) {
        return now - lastUsedNanos > idleNanos;
    }

    /**
     * Records one request's outcome on the bound proxy. True when this failure makes the session
     * move: {@code switchFailures} failures in a row, or at least {@code switchErrorRate} of the
     * last {@code switchWindow} requests failed once half the window is filled.
     */
    synchronized boolean record(boolean failed, StickyPolicy policy) {
        int window = policy.switchWindow();
        long mask = window >= Long.SIZE ? -1L : (1L << window) - 1;
        outcomes = ((outcomes << 1) | (failed ? 1 : 0)) & mask;
        recorded = Math.min(window, recorded + 1);
        streak = failed ? streak + 1 : 0;
        if (!failed) {
            return false;
        }
        if (streak >= policy.switchFailures()) {
            return true;
        }
        int failures = Long.bitCount(outcomes);
        return recorded * 2 >= window && failures >= policy.switchErrorRate() * recorded - 1e-9;
    }

    synchronized int failureStreak() {
        return streak;
    }

    synchronized int windowFailures() {
        return Long.bitCount(outcomes);
    }

    synchronized int windowRequests() {
        return recorded;
    }

    StickyTable.BindingView view() {
        return new StickyTable.BindingView(
                proxyId,
                createdNanos,
                lastUsedNanos,
                expiresNanos,
                failureStreak(),
                windowRequests(),
                windowFailures());
    }
}
