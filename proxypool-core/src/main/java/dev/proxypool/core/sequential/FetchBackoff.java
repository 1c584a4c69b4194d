package dev.proxypool.core.sequential;

import java.time.Duration;
import java.util.Objects;

/**
 * One upstream's fetch schedule rule: after each fetch the next one is due {@code fetchInterval}
 * later, plus a backoff after errors. The backoff doubles with each consecutive error
 * ({@code fetchInterval · 2^errors}, the exponent capped at 16) and never exceeds
 * {@link #MAX_BACKOFF}; any answer that is not an error ends the error streak and the backoff.
 * Empty answers are counted as their own streak (reported, not backed off).
 *
 * <p>Not thread-safe: its owner serialises the calls (the pipeline records under its round lock).
 */
public final class FetchBackoff {

    /** The longest extra wait after consecutive errors. */
    public static final Duration MAX_BACKOFF = Duration.ofMinutes(10);

    private int consecutiveErrors;
    private int consecutiveEmpty;
    private long backoffNanos;

    /** A schedule with no error or Empty streak: the first fetch waits the plain interval. */
    public FetchBackoff() {
        // the implicit constructor, made explicit only to carry its comment
    }

    /**
     * Records the outcome of a fetch.
     *
     * @return nanoseconds until the next fetch is due: the interval plus the current backoff
     * @throws IllegalArgumentException when {@code fetchInterval} is not positive
     * @param outcome       what the fetch returned; not null
     * @param fetchInterval the upstream's {@code fetchInterval}, positive
     */
    public long record(FetchOutcome outcome, Duration fetchInterval) {
        Objects.requireNonNull(outcome, "outcome");
        if (fetchInterval.isNegative() || fetchInterval.isZero()) {
            throw new IllegalArgumentException("fetchInterval must be positive, got " + fetchInterval);
        }
        switch (outcome) {
            case FetchOutcome.Error err -> {
                consecutiveErrors++;
                backoffNanos = Math.min(
                        fetchInterval.toNanos() * (1L << Math.min(consecutiveErrors, 16)), MAX_BACKOFF.toNanos());
            }
            case FetchOutcome.Empty e -> {
                consecutiveErrors = 0;
                consecutiveEmpty++;
                backoffNanos = 0;
            }
            case FetchOutcome.Success ok -> reset();
            case FetchOutcome.DuplicateOnly d -> reset();
        }
        return fetchInterval.toNanos() + backoffNanos;
    }

    private void reset() {
        consecutiveErrors = 0;
        consecutiveEmpty = 0;
        backoffNanos = 0;
    }

    /**
     * Errors in a row, the exponent of the backoff before its cap.
     *
     * @return the count; 0 after any other answer
     */
    public int consecutiveErrors() {
        return consecutiveErrors;
    }

    /**
     * Empty answers in a row; an error neither counts nor resets it.
     *
     * @return the count; 0 after a Success or DuplicateOnly
     */
    public int consecutiveEmpty() {
        return consecutiveEmpty;
    }

    /**
     * The extra wait the last error streak added to the interval; 0 after any other answer.
     *
     * @return nanoseconds, at most {@link #MAX_BACKOFF}
     */
    public long backoffNanos() {
        return backoffNanos;
    }
}
