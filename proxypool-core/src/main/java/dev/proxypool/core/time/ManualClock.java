package dev.proxypool.core.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to: a {@link Ticker} and an {@link InstantSource} advanced
 * together, so tests drive cooldowns, windows and TTLs without sleeping. Thread-safe.
 */
public final class ManualClock implements Ticker, InstantSource {

    private final AtomicLong nanos;
    private final Instant origin;
    private final long originNanos;

    /** Starts at {@code 2026-01-01T00:00:00Z} with a ticker reading of 1 s (never 0: 0 often means "unset"). */
    public ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /**
     * Starts at a given wall-clock instant, with a ticker reading of 1 s.
     *
     * @param start what {@link #instant()} returns until the clock is advanced; not null
     */
    public ManualClock(Instant start) {
        this.origin = start;
        this.originNanos = 1_000_000_000L;
        this.nanos = new AtomicLong(originNanos);
    }

    @Override
    public long read() {
        return nanos.get();
    }

    @Override
    public Instant instant() {
        return origin.plusNanos(nanos.get() - originNanos);
    }

    /**
     * Moves both the ticker and the instant forward by the same amount.
     *
     * @param d how far to move, zero or positive; not null
     * @return this clock, for chaining
     * @throws IllegalArgumentException if {@code d} is negative: a monotonic clock never goes back
     */
    public ManualClock advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a monotonic clock never goes back: " + d);
        }
        nanos.addAndGet(d.toNanos());
        return this;
    }

    /**
     * Moves the clock forward by a number of nanoseconds, as {@link #advance(Duration)} does.
     *
     * @param n nanoseconds to move, zero or positive
     * @return this clock, for chaining
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public ManualClock advanceNanos(long n) {
        return advance(Duration.ofNanos(n));
    }
}
