package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.DerivedKey;
import java.util.Arrays;

/**
 * A consistent-hash ring with virtual nodes over a candidate set, built once per set.
 *
 * <p>Each candidate owns V points on a 64-bit circle at {@code mix(hash(proxyId) + v·φ)}; a key
 * belongs to the first point at or after its own hash (wrapping). Point positions depend only on
 * the proxy id, so when one of N proxies leaves the next snapshot, only the keys it owned (≈ 1/N)
 * move; everyone else keeps their proxy. Modulo hashing would move ≈ (N-1)/N of them.
 *
 * <p>Layout: one {@code long[]} sorted in unsigned order; each entry packs the point's top 40 hash
 * bits above a 24-bit candidate index (sets up to 2^24 candidates), plus a radix directory from the
 * top hash bits to the first point of each bucket (about four points per bucket), so a lookup is
 * one directory read and a binary search over a few adjacent points, with no object access. V shrinks with the set size to bound memory at about 2^21 points (16 MB):
 * 128 up to 16,384 candidates, then halving per doubling down to 8 (16 for 100,000). Because
 * V is a power of two and a smaller V keeps the first points, a change of V moves few keys.
 *
 * <p>Cost: build O(n·V) once (lazy, first consistent-hash pick of the set: hashing plus a bucket
 * sort, tens of milliseconds at 100,000 candidates); lookup O(1) expected. Immutable after build, so thread-safe.
 */
final class HashRing {

    static final DerivedKey<HashRing> KEY = DerivedKey.of("consistentHashRing", HashRing::build);

    static final int INDEX_BITS = 24;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final long POINT_BUDGET = 1L << 21;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long[] points;
    /** Bits of the hash that index {@link #directory}. */
    private final int directoryBits;
    /** {@code directory[b]}: the first point whose top hash bits are ≥ b (a radix index into {@link #points}). */
    private final int[] directory;

    private HashRing(long[] points, int directoryBits, int[] directory) {
        this.points = points;
        this.directoryBits = directoryBits;
        this.directory = directory;
    }

    /** The directory bucket of a hash: its top bits, as an unsigned value (ring order is unsigned). */
    private static int bucket(long hash, int bits) {
        return (int) (hash >>> (64 - bits));
    }

    static int virtualNodes(int candidates) {
        int v = 128;
        while (v > 8 && (long) candidates * v > POINT_BUDGET) {
            v >>= 1;
        }
        return v;
    }

    static HashRing build(CandidateSet set) {
        int n = set.size();
        if (n > INDEX_MASK + 1) {
            throw new IllegalStateException("hash ring supports at most 2^24 candidates, got " + n);
        }
        int v = virtualNodes(n);
        long[] raw = new long[n * v];
        int at = 0;
        for (int i = 0; i < n; i++) {
            long idHash = Hash64.of(set.snapshot().proxy(set.slotAt(i)).id());
            for (int k = 0; k < v; k++) {
                raw[at++] = (Hash64.mix(idHash + (k + 1) * GOLDEN) & ~INDEX_MASK) | i;
            }
        }
        int bits = Math.max(4, Math.min(20, 64 - Long.numberOfLeadingZeros(Math.max(1, raw.length)) - 2));
        int[] directory = new int[(1 << bits) + 1];
        return new HashRing(bucketSort(raw, bits, directory), bits, directory);
    }

    /**
     * Sorts uniformly distributed points in unsigned order in O(n): a counting sort on the top
     * {@code bits} (about four points per bucket), which also fills {@code directory}, then an
     * insertion sort inside each bucket. A comparison sort of 1.6 M points took 0.3-0.8 s on the
     * first pick of a snapshot; this takes a few tens of milliseconds.
     */
    static long[] bucketSort(long[] raw, int bits, int[] directory) {
        int buckets = 1 << bits;
        for (long p : raw) {
            directory[bucket(p, bits) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            directory[b + 1] += directory[b];
        }
        int[] next = Arrays.copyOf(directory, buckets);
        long[] sorted = new long[raw.length];
        for (long p : raw) {
            sorted[next[bucket(p, bits)]++] = p;
        }
        for (int b = 0; b < buckets; b++) {
            for (int i = directory[b] + 1; i < directory[b + 1]; i++) {
                long x = sorted[i];
                int j = i - 1;
                while (j >= directory[b] && Long.compareUnsigned(sorted[j], x) > 0) {
                    sorted[j + 1] = sorted[j];
                    j--;
                }
                sorted[j + 1] = x;
            }
        }
        return sorted;
    }

    /** The packed point at {@code position} (tests). */
    long pointAt(int position) {
        return points[position];
    }

    int size() {
        return points.length;
    }

    /**
     * The ring position owning {@code keyHash}: the first point at or after it, wrapping. The
     * directory narrows the search to one bucket of a few points, so a lookup touches about three
     * cache lines instead of one per binary-search step over a multi-megabyte array.
     */
    int positionOf(long keyHash) {
        long key = keyHash & ~INDEX_MASK;
        int b = bucket(key, directoryBits);
        int lo = directory[b];
        int hi = directory[b + 1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(points[mid], key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == points.length ? 0 : lo;
    }

    /** The candidate index of ring position {@code position} (any int; taken modulo the ring size). */
    int candidateAt(int position) {
        return (int) (points[position % points.length] & INDEX_MASK);
    }
}
