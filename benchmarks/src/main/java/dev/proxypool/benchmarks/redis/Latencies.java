package dev.proxypool.benchmarks.redis;

import java.util.Arrays;
import java.util.List;

/** Latency samples in nanoseconds, merged from per-thread arrays; percentiles by sorting (nearest rank). */
final class Latencies {

    private final long[] sorted;

    Latencies(List<long[]> parts) {
        int n = 0;
        for (long[] p : parts) {
            n += p.length;
        }
        sorted = new long[n];
        int at = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, sorted, at, p.length);
            at += p.length;
        }
        Arrays.sort(sorted);
    }

    /** The {@code q}-quantile (0 < q <= 1) in microseconds. */
    double micros(double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))] / 1000.0;
    }
}
