package dev.proxypool.core.sticky;

/**
 * One session's binding to a proxy. Immutable except for the last-use time, which lookups refresh.
 * All times are ticker nanoseconds.
 */
final class Binding {

    final String proxyId;
    final long createdNanos;
    /** min(created + lifetime, proxy deadline). */
    final long expiresNanos;
    /** True when the proxy's deadline, not the lifetime, set {@link #expiresNanos}. */
    final boolean cappedByProxy;

    volatile long lastUsedNanos;

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

    StickyTable.BindingView view() {
        return new StickyTable.BindingView(proxyId, createdNanos, lastUsedNanos, expiresNanos);
    }
}
