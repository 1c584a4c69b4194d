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

    public ManualClock advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a monotonic clock never goes back: " + d);
        }
        nanos.addAndGet(d.toNanos());
        return this;
    }

    public ManualClock advanceNanos(long n) {
        return advance(Duration.ofNanos(n));
    }
}
