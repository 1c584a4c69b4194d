package dev.proxypool.server.soak;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in microseconds, log-linear buckets (exact below 128 µs, then 32 sub-buckets per
 * power of two: at most 3.2% error; everything above 2^27 µs, about 134 s, in the last bucket),
 * lock-free to record from many threads. A quantile reports its bucket's upper bound, so it never
 * under-states.
 */
final class LatencyHistogram {

    private static final int LINEAR = 128;
    private static final int SUB = 32;
    private static final int BUCKETS = LINEAR + 20 * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    void record(long micros) {
        counts.incrementAndGet(bucket(Math.max(0, micros)));
    }

    long count() {
        long n = 0;
        for (int i = 0; i < BUCKETS; i++) {
            n += counts.get(i);
        }
        return n;
    }

    /** The {@code q} quantile (0 < q ≤ 1) in microseconds, or 0 when empty. */
    long quantile(double q) {
        long total = count();
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return upper(i);
            }
        }
        return upper(BUCKETS - 1);
    }

    static int bucket(long us) {
        if (us < LINEAR) {
            return (int) us;
        }
        int e = 63 - Long.numberOfLeadingZeros(us); // >= 7
        int m = (int) ((us >>> (e - 5)) & (SUB - 1));
        return Math.min(BUCKETS - 1, LINEAR + (e - 7) * SUB + m);
    }

    static long upper(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int e = (bucket - LINEAR) / SUB + 7;
        long m = (bucket - LINEAR) % SUB;
        return ((SUB + m + 1) << (e - 5)) - 1;
    }
}
