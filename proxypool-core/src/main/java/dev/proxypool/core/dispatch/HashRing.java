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
 * <p>Layout: one sorted {@code long[]}; each entry packs the point's top 40 hash bits above a 24-bit
 * candidate index, so a lookup is one binary search with no object access (sets up to 2^24
 * candidates). V shrinks with the set size to bound memory at about 2^21 points (16 MB):
 * 128 up to 16,384 candidates, then halving per doubling down to 8 (16 for 100,000). Because
 * V is a power of two and a smaller V keeps the first points, a change of V moves few keys.
 *
 * <p>Cost: build O(n·V log(n·V)) once (lazy, first consistent-hash pick of the set; ~0.2 s at
 * 100,000 candidates); lookup O(log(n·V)). Immutable after build, so thread-safe.
 */
final class HashRing {

    static final DerivedKey<HashRing> KEY = DerivedKey.of("consistentHashRing", HashRing::build);

    static final int INDEX_BITS = 24;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final long POINT_BUDGET = 1L << 21;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long[] points;

    private HashRing(long[] points) {
        this.points = points;
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
        Arrays.sort(points);
        return new HashRing(points);
    }

    int size() {
        return points.length;
    }

    /** The ring position owning {@code keyHash}: the first point at or after it, wrapping. */
    int positionOf(long keyHash) {
        long key = keyHash & ~INDEX_MASK;
        int lo = 0;
        int hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (points[mid] < key) {
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
