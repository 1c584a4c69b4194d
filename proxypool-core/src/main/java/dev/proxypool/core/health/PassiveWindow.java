package dev.proxypool.core.health;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A sliding window of request and failure counts: a ring of {@value #BUCKETS} time buckets, each
 * one {@code long} packing the bucket's epoch and its two counters, updated by compare-and-set.
 *
 * <p>Why packed longs: a bucket rolls over to a new epoch and is counted into by one CAS, so a
 * rollover can never lose or double a count (separate epoch/counter fields would need a lock or
 * tolerate races), and a record allocates nothing. The window covers the last {@value #BUCKETS}
 * buckets, so its effective length is between {@code window - bucket} and {@code window}.
 *
 * <p>Layout: epoch (low {@value #EPOCH_BITS} bits of {@code now / bucketNanos}) | requests | failures,
 * counters saturating at {@value #COUNT_MAX}. O(1) record, O(buckets) read; thread-safe.
 */
final class PassiveWindow {

    static final int BUCKETS = 10;
    private static final int EPOCH_BITS = 22;
    private static final int COUNT_BITS = 21;
    static final long COUNT_MAX = (1L << COUNT_BITS) - 1;
    private static final long EPOCH_MASK = (1L << EPOCH_BITS) - 1;

    private final long bucketNanos;
    private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);

    PassiveWindow(long windowNanos) {
        this.bucketNanos = Math.max(1, windowNanos / BUCKETS);
    }

    /** Counts one request, failed or not, at {@code nowNanos}. */
    void record(boolean failed, long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        int slot = (int) Math.floorMod(epoch, BUCKETS);
        long tag = epoch & EPOCH_MASK;
        for (; ; ) {
            long packed = buckets.get(slot);
            long next;
            if (epochOf(packed) == tag && packed != 0) {
                next = pack(
                        tag,
                        Math.min(COUNT_MAX, requestsOf(packed) + 1),
                        Math.min(COUNT_MAX, failuresOf(packed) + (failed ? 1 : 0)));
            } else {
                next = pack(tag, 1, failed ? 1 : 0);
            }
            if (buckets.compareAndSet(slot, packed, next)) {
                return;
            }
        }
    }

    /** Requests in the window ending at {@code nowNanos}. */
    long requests(long nowNanos) {
        return sum(nowNanos, false);
    }

    /** Failures in the window ending at {@code nowNanos}. */
    long failures(long nowNanos) {
        return sum(nowNanos, true);
    }

    /**
     * True when at least {@code minSamples} requests were seen and the failure share exceeds {@code errorRate}.
     * One pass over the buckets, no allocation.
     */
    boolean errorRateExceeded(long nowNanos, int minSamples, double errorRate) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        long requests = 0;
        long failures = 0;
        for (int i = 0; i < BUCKETS; i++) {
            long packed = buckets.get(i);
            if (live(packed, epoch)) {
                requests += requestsOf(packed);
                failures += failuresOf(packed);
            }
        }
        return requests >= minSamples && failures > errorRate * requests;
    }

    /** Forgets everything (a recovered proxy starts with a clean record). */
    void reset() {
        for (int i = 0; i < BUCKETS; i++) {
            buckets.set(i, 0);
        }
    }

    private long sum(long nowNanos, boolean failures) {
        long epoch = Math.floorDiv(nowNanos, bucketNanos);
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            long packed = buckets.get(i);
            if (live(packed, epoch)) {
                total += failures ? failuresOf(packed) : requestsOf(packed);
            }
        }
        return total;
    }

    /** A bucket counts when it was written within the last BUCKETS epochs (compared modulo the epoch bits). */
    private static boolean live(long packed, long currentEpoch) {
        if (packed == 0) {
            return false;
        }
        long age = ((currentEpoch & EPOCH_MASK) - epochOf(packed)) & EPOCH_MASK;
        return age < BUCKETS;
    }

    private static long pack(long epochTag, long requests, long failures) {
        return (epochTag << (2 * COUNT_BITS)) | (requests << COUNT_BITS) | failures;
    }

    private static long epochOf(long packed) {
        return packed >>> (2 * COUNT_BITS);
    }

    private static long requestsOf(long packed) {
        return (packed >>> COUNT_BITS) & COUNT_MAX;
    }

    private static long failuresOf(long packed) {
        return packed & COUNT_MAX;
    }
}
