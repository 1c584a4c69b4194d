package dev.proxypool.core.time;

/**
 * A monotonic clock in nanoseconds for in-process durations (cooldowns, windows, TTL countdowns).
 * Readings are only comparable within one process and are never persisted or sent elsewhere.
 * A primitive-returning interface, so hot paths read it without boxing.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * Reads the clock.
     *
     * @return nanoseconds since an arbitrary, fixed origin; never decreases within one process, and
     *     only differences between two readings mean anything
     */
    long read();

    /**
     * {@link System#nanoTime()}: the only production ticker.
     *
     * @return a stateless singleton ticker, safe to share between threads
     */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}
