package dev.proxypool.core.health;

/**
 * Told about every health transition of one proxy (metrics: transitions by reason and stage; audit).
 *
 * <p>Called on the thread that made the transition, right after it was published, so it must be
 * quick and must not block. Transitions of one proxy made by different threads may arrive out of
 * order; {@link HealthStatus#sequence()} orders them. An exception thrown here is logged and
 * dropped: a broken listener never breaks health accounting.
 */
@FunctionalInterface
public interface HealthListener {

    /**
     * One transition, just published.
     *
     * @param from the status replaced
     * @param to   the status now current; {@code to.sequence() == from.sequence() + 1}
     */
    void onTransition(HealthStatus from, HealthStatus to);

    /**
     * A listener that ignores everything.
     *
     * @return a shared no-op listener
     */
    static HealthListener none() {
        return (from, to) -> {};
    }
}
