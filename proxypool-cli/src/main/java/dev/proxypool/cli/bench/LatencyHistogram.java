package dev.proxypool.cli.bench;

/**
 * A fixed-size log-linear latency histogram (the HdrHistogram idea, written small): values in
 * microseconds; below {@value #FULL} µs every value has its own bucket, above it each power of two
 * is split into {@value #HALF} equal buckets, so a reported percentile is within 1/{@value #HALF}
 * (about 1.6 %) of the true value. Covers up to 2^{@value #MAX_MSB} µs (about 19 hours); larger
 * values are clamped to the last bucket. 2,048 longs (16 KiB), no allocation per record.
 *
 * <p>Why not sorted samples: a bench records millions of values; a histogram is constant memory
 * and merging the workers' histograms is an array sum. Not thread-safe: each worker keeps its own
 * and they are {@link #add merged} after the run.
 */
public final class LatencyHistogram {

    static final int SUB_BITS = 7;
    static final int FULL = 1 << SUB_BITS; // 128
    static final int HALF = FULL >> 1; // 64
    static final int MAX_MSB = 36;
    static final int BUCKETS = (MAX_MSB - SUB_BITS + 1) * HALF + FULL;

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long maxMicros;
    private long minMicros = Long.MAX_VALUE;
    private double sumMicros;

    /** Records one latency. */
    public void recordNanos(long nanos) {
        recordMicros(Math.max(0, nanos / 1_000));
    }

    public void recordMicros(long micros) {
        long v = Math.max(0, micros);
        counts[index(v)]++;
        total++;
        sumMicros += v;
        maxMicros = Math.max(maxMicros, v);
        minMicros = Math.min(minMicros, v);
    }

    /** Adds every value of {@code other} to this one. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        sumMicros += other.sumMicros;
        maxMicros = Math.max(maxMicros, other.maxMicros);
        minMicros = Math.min(minMicros, other.minMicros);
    }

    public long count() {
        return total;
    }

    public long maxMicros() {
        return maxMicros;
    }

    public long minMicros() {
        return total == 0 ? 0 : minMicros;
    }

    public double meanMicros() {
        return total == 0 ? 0 : sumMicros / total;
    }

    /**
     * The value at {@code percentile} (0 &lt; p &le; 100): the smallest recorded value such that at
     * least p % of values are at or below it, reported as its bucket's midpoint (exact below
     * {@value #FULL} µs) and never above the recorded maximum. 0 when empty.
     */
    public long percentileMicros(double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentile);
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(percentile / 100.0 * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(maxMicros, Math.max(minMicros(), midpoint(i)));
            }
        }
        return maxMicros;
    }

    static int index(long micros) {
        if (micros < FULL) {
            return (int) micros;
        }
        int msb = 63 - Long.numberOfLeadingZeros(micros);
        if (msb > MAX_MSB) {
            return BUCKETS - 1;
        }
        int shift = msb - SUB_BITS + 1;
        return shift * HALF + (int) (micros >>> shift);
    }

    /** The lowest value that falls in bucket {@code index}. */
    static long lowest(int index) {
        if (index < FULL) {
            return index;
        }
        int shift = index / HALF - 1;
        long sub = index - (long) shift * HALF;
        return sub << shift;
    }

    static long midpoint(int index) {
        if (index < FULL) {
            return index;
        }
        int shift = index / HALF - 1;
        return lowest(index) + ((1L << shift) >> 1);
    }
}
