package dev.proxypool.core.time;

import java.time.InstantSource;

/** The production clocks, in one place: nothing outside this package reads the system time. */
public final class Clocks {

    private Clocks() {}

    /**
     * Wall-clock time for facts that are stored or sent ({@code expiresAt}, audit times).
     *
     * @return the system's {@link InstantSource}; it can jump when the host clock is set, so never
     *     measure durations with it
     */
    public static InstantSource wall() {
        return InstantSource.system();
    }

    /**
     * Monotonic time for in-process durations.
     *
     * @return the shared {@link System#nanoTime()} ticker, safe to use from any thread
     */
    public static Ticker monotonic() {
        return Ticker.system();
    }
}
