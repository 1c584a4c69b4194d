package dev.proxypool.core.limits;

import dev.proxypool.core.time.Ticker;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-client gateway rate limit ({@code clients[].rateLimit.rps}, docs/design.md#connection-limits L5): a token bucket
 * refilling at {@code rps} tokens per second with room for one second's worth
 * ({@code burst = max(1, floor(rps))}). A refused request is answered 429 {@code rate_limited}.
 *
 * <p><b>Algorithm.</b> The bucket is kept in its GCRA form: one {@link AtomicLong} holding the
 * "theoretical arrival time" (TAT) of the next request. With emission interval
 * {@code T = 1 s / rps} and tolerance {@code τ = (burst - 1)·T}, a request at {@code now} passes
 * when {@code max(TAT, now) - now <= τ}, and then moves TAT to {@code max(TAT, now) + T}. This is
 * exactly a token bucket of {@code burst} tokens (an idle client may send {@code burst} at once,
 * then one per {@code T}), but the whole state is one long updated by CAS: lock-free, O(1), no
 * allocation, no background refill.
 *
 * <p>Memory is bounded by the configured clients: a client without a limit ({@code rps: 0}) or
 * not configured at all (e.g. the gateway's anonymous client) is never limited and costs
 * nothing. Time comes from the injected {@link Ticker}. Thread-safe.
 */
public final class RateLimiter {

    private static final long SECOND = 1_000_000_000L;

    private static final class Bucket {
        final long interval;
        final long tolerance;
        final AtomicLong tat;

        Bucket(double rps, long now) {
            this.interval = Math.max(1, Math.round(SECOND / rps));
            long burst = Math.max(1, (long) Math.floor(rps));
            this.tolerance = (burst - 1) * interval;
            this.tat = new AtomicLong(now);
        }
    }

    private final Map<String, Bucket> buckets;
    private final Ticker ticker;

    /**
     * A limiter whose every bucket starts full.
     *
     * @param rpsByClient requests per second per client name; 0 = unlimited
     * @param ticker      monotonic clock the buckets refill on; not null
     * @throws IllegalArgumentException naming the client when a rate is negative or not finite
     */
    public RateLimiter(Map<String, Double> rpsByClient, Ticker ticker) {
        this.ticker = ticker;
        long now = ticker.read();
        Map<String, Bucket> m = new HashMap<>();
        for (Map.Entry<String, Double> e : rpsByClient.entrySet()) {
            double rps = e.getValue();
            if (!(rps >= 0) || Double.isInfinite(rps)) {
                throw new IllegalArgumentException(
                        "clients[" + e.getKey() + "].rateLimit.rps must be 0 or a positive number, got " + rps);
            }
            if (rps > 0) {
                m.put(e.getKey(), new Bucket(rps, now));
            }
        }
        this.buckets = Map.copyOf(m);
    }

    private RateLimiter(Map<String, Bucket> buckets, Ticker ticker, boolean unused) {
        this.buckets = buckets;
        this.ticker = ticker;
    }

    /**
     * The limits of {@code rpsByClient} (the client list changed), keeping the bucket — and so the
     * state of the current second — of every client whose rate did not change: a configuration
     * change does not hand every client a fresh burst.
     *
     * @throws IllegalArgumentException naming the client when a rate is negative or not finite
     * @param rpsByClient requests per second per client name; 0 = unlimited
     * @return a new limiter sharing this one's ticker; this one is unchanged
     */
    public RateLimiter updated(Map<String, Double> rpsByClient) {
        RateLimiter fresh = new RateLimiter(rpsByClient, ticker);
        Map<String, Bucket> m = new HashMap<>(fresh.buckets);
        m.replaceAll((name, b) -> {
            Bucket old = buckets.get(name);
            return old != null && old.interval == b.interval && old.tolerance == b.tolerance ? old : b;
        });
        return new RateLimiter(Map.copyOf(m), ticker, true);
    }

    /**
     * Takes one token for {@code client}; false means 429. Lock-free, allocation-free.
     *
     * @param client the authenticated client's name; an unknown one is never limited
     * @return true if the request may go ahead
     */
    public boolean tryAcquire(String client) {
        Bucket b = buckets.get(client);
        if (b == null) {
            return true;
        }
        long now = ticker.read();
        for (; ; ) {
            long tat = b.tat.get();
            long start = tat - now > 0 ? tat : now;
            if (start - now > b.tolerance) {
                return false;
            }
            if (b.tat.compareAndSet(tat, start + b.interval)) {
                return true;
            }
        }
    }

    /**
     * Nanoseconds until {@link #tryAcquire} would pass for {@code client}; 0 when it would now (for {@code Retry-After}).
     *
     * @param client the client's name
     * @return nanoseconds, 0 for an unlimited client
     */
    public long nanosUntilAvailable(String client) {
        Bucket b = buckets.get(client);
        if (b == null) {
            return 0;
        }
        long wait = b.tat.get() - ticker.read() - b.tolerance;
        return Math.max(0, wait);
    }

    /**
     * True when {@code client} has a limit.
     *
     * @param client the client's name
     * @return true if a positive rate is configured for it
     */
    public boolean limits(String client) {
        return buckets.containsKey(client);
    }
}
