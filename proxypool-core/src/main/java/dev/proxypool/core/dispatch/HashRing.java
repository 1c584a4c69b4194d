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
 * <p>Cost: build O(n·V log(n·V)) once (lazy, first consistent-hash pick of the set; ~0.2 s at
 * 100,000 candidates); lookup O(1) expected. Immutable after build, so thread-safe.
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

    private HashRing(long[] points) {
        this.points = points;
        int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, points.length)) - 2; // ~4 points per bucket
        this.directoryBits = Math.max(4, Math.min(20, bits));
        this.directory = new int[(1 << directoryBits) + 1];
        int at = 0;
        for (int b = 0; b < (1 << directoryBits); b++) {
            while (at < points.length && bucket(points[at]) < b) {
                at++;
            }
            directory[b] = at;
        }
        directory[1 << directoryBits] = points.length;
    }

    /** The directory bucket of a hash: its top bits, as an unsigned value (ring order is unsigned). */
    private int bucket(long hash) {
        return (int) (hash >>> (64 - directoryBits));
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
        long[] points = new long[n * v];
        int at = 0;
        for (int i = 0; i < n; i++) {
            long idHash = Hash64.of(set.snapshot().proxy(set.slotAt(i)).id());
            for (int k = 0; k < v; k++) {
                points[at++] = (Hash64.mix(idHash + (k + 1) * GOLDEN) & ~INDEX_MASK) | i;
            }
        }
        sortUnsigned(points);
        return new HashRing(points);
    }

    /** Sorts in unsigned order (the circle runs 0 .. 2^64-1): flip the sign bit, sort signed, flip back. */
    private static void sortUnsigned(long[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(a);
        for (int i = 0; i < a.length; i++) {
            a[i] ^= Long.MIN_VALUE;
        }
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
        int b = bucket(key);
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
