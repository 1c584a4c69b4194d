package dev.proxypool.testkit;

import java.time.Duration;

/**
 * A deliberate pause that is itself the behaviour under test or the load being generated: a slow
 * client trickling bytes, a fake holding a connection open, a load generator keeping its rate, a
 * quiet gap shorter than a timeout. Never a wait for something to happen — that is
 * {@link Await} — so a search for {@code Pace.sleep} finds every intended pause and a search for
 * {@code Thread.sleep} in tests finds none.
 */
public final class Pace {

    private Pace() {}

    /**
     * Sleeps for {@code d} (nothing when it is zero or negative). An interrupt ends the pause early
     * with the thread's interrupt flag set again, so callers' loops see it and stop.
     */
    public static void sleep(Duration d) {
        if (d.isNegative() || d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d); // the one intended pause every caller names by calling Pace
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #sleep(Duration)} of {@code millis} milliseconds. */
    public static void sleepMillis(long millis) {
        sleep(Duration.ofMillis(millis));
    }
}
