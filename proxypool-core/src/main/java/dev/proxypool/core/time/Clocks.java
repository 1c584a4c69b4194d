package dev.proxypool.core.time;

import java.time.InstantSource;

/** The production clocks, in one place: nothing outside this package reads the system time. */
public final class Clocks {

    private Clocks() {
    }

    /** Wall-clock time for facts that are stored or sent ({@code expiresAt}, audit times). */
    public static InstantSource wall() {
        return InstantSource.system();
    }

    /** Monotonic time for in-process durations. */
    public static Ticker monotonic() {
        return Ticker.system();
    }
}
