package dev.proxypool.testkit;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Waits for a condition in a test: polls a probe until it is accepted or a deadline passes, then
 * fails with an {@link AssertionError} naming what was awaited and the value the probe last returned
 * (or the exception it last threw). Tests use this instead of a fixed sleep, so no test depends on a
 * sleep being long enough: a fast machine goes on at once, a slow one gets until the deadline.
 *
 * <p>The pause between probes starts at 1 ms and doubles up to {@link #every(Duration) a bound}
 * ({@value #DEFAULT_INTERVAL_MS} ms unless told), and never runs past the deadline; the probe is
 * always tried once more at the deadline. A probe that throws is treated as "not yet" (its exception
 * becomes the last seen value and the cause of the failure). An interrupt stops the wait at once
 * with an {@link AssertionError}, the thread's interrupt flag set again.
 *
 * <pre>{@code
 * Await.atMost(Duration.ofSeconds(10)).until("engine idle", engine::inFlight, n -> n == 0);
 * Await.standard().until("the listener is up", () -> listener.isOpen());
 * }</pre>
 *
 * <p>Instances are immutable and may be shared.
 */
public final class Await {

    /** The deadline of {@link #standard()}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    static final long DEFAULT_INTERVAL_MS = 50;
    private static final long FIRST_PAUSE_NANOS = 1_000_000L;

    /** How the waiting thread pauses between probes; a test of this class records the pauses instead. */
    @FunctionalInterface
    interface Pause {
        void nanos(long n) throws InterruptedException;
    }

    private static final Pause THREAD_SLEEP = n -> Thread.sleep(Duration.ofNanos(n)); // between probes, bounded

    private final Duration timeout;
    private final Duration interval;
    private final Ticker ticker;
    private final Pause pause;

    Await(Duration timeout, Duration interval, Ticker ticker, Pause pause) {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(interval, "interval");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Await timeout must be positive: " + timeout);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("Await polling interval must be positive: " + interval);
        }
        this.timeout = timeout;
        this.interval = interval;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    /** A wait that gives up after {@code timeout}, polling at most every {@value #DEFAULT_INTERVAL_MS} ms. */
    public static Await atMost(Duration timeout) {
        return new Await(timeout, Duration.ofMillis(DEFAULT_INTERVAL_MS), Ticker.system(), THREAD_SLEEP);
    }

    /** This wait with the pause between probes bounded by {@code maxInterval}. */
    public Await every(Duration maxInterval) {
        return new Await(timeout, maxInterval, ticker, pause);
    }

    /** {@code atMost(DEFAULT_TIMEOUT)}: for waits with no deadline of their own to respect. */
    public static Await standard() {
        return atMost(DEFAULT_TIMEOUT);
    }

    /** Waits until {@code condition} holds; fails naming {@code what} if it does not in time. */
    public void until(String what, BooleanSupplier condition) {
        Objects.requireNonNull(condition, "condition");
        until(what, condition::getAsBoolean, Boolean::booleanValue);
    }

    /**
     * Waits until {@code accept} takes a value of {@code probe}, and returns that value.
     *
     * @throws AssertionError when the deadline passes (the message names {@code what}, the timeout and
     *     the last value seen) or the thread is interrupted
     */
    public <T> T until(String what, Callable<T> probe, Predicate<? super T> accept) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(accept, "accept");
        long start = ticker.read();
        long deadline = start + timeout.toNanos();
        long maxPause = interval.toNanos();
        long nextPause = Math.min(FIRST_PAUSE_NANOS, maxPause);
        int probes = 0;
        Object lastSeen = "nothing (never probed)";
        Throwable lastError = null;
        while (true) {
            probes++;
            try {
                T value = probe.call();
                if (accept.test(value)) {
                    return value;
                }
                lastSeen = value;
                lastError = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            } catch (Exception | AssertionError e) {
                lastSeen = e;
                lastError = e;
            }
            long left = deadline - ticker.read();
            if (left <= 0) {
                AssertionError failure = new AssertionError("timed out after " + timeout + " (" + probes
                        + " probes) waiting for " + what + "; last seen: " + describe(lastSeen));
                if (lastError != null) {
                    failure.initCause(lastError);
                }
                throw failure;
            }
            try {
                pause.nanos(Math.min(nextPause, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(
                        "interrupted while waiting for " + what + "; last seen: " + describe(lastSeen), e);
            }
            nextPause = Math.min(maxPause, nextPause * 2);
        }
    }

    private static String describe(Object value) {
        if (value instanceof Throwable t) {
            return t.getClass().getName() + ": " + t.getMessage();
        }
        return String.valueOf(value);
    }
}
