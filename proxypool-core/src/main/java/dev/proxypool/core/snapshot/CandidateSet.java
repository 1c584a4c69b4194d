package dev.proxypool.core.snapshot;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.health.ProxyHealth;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The proxies of one {@link PoolSnapshot} that pass a {@link CandidateFilter}'s static part
 * (upstreams, protocols, labels), computed once and memoized by the snapshot, plus whatever the
 * selection strategies derive from it ({@link #derived(DerivedKey)}).
 *
 * <p>Layout: one {@code int[]} of slots cut into segments, one segment per upstream of the filter
 * in routing order (a single segment when the filter names no upstream); each segment ascending.
 * Strategies that ignore upstream order see one list of {@link #size()} candidates; the sequential
 * strategy walks segments. The time-dependent part of the filter (remaining TTL, health age) cannot
 * be precomputed and is checked per pick; its nanosecond limits are cached here.
 *
 * <p>Locality: the per-pick inputs of each candidate (its expiry deadline, {@link ProxyHealth} and
 * {@link CapacityCell}) are copied into arrays indexed by candidate index, beside {@link #slotAt}.
 * A pick over a large pool then reads a few small arrays that stay in cache instead of chasing the
 * snapshot-wide arrays of every proxy (one cache miss fewer per candidate tried; 16 bytes per candidate).
 *
 * <p>Thread-safety: immutable after construction except for the derived values, which are computed
 * at most once per key under this set's lock and published with release semantics; reading them is
 * a plain array load. Complexity: {@link #slotAt(int)} O(1), {@link #contains(int)} O(segments · log n).
 */
public final class CandidateSet {

    private final PoolSnapshot snapshot;
    private final CandidateFilter filter;
    private final int[] slots;
    private final int[] segmentStarts;
    private final long[] deadlines;
    private final ProxyHealth[] healths;
    private final CapacityCell[] capacities;
    private final long totalWeight;
    private final long minRemainingTtlNanos;
    private final long maxHealthAgeNanos;
    private final AtomicReferenceArray<Object> derived = new AtomicReferenceArray<>(DerivedKey.MAX_KEYS);
    private final Object derivedLock = new Object();

    CandidateSet(PoolSnapshot snapshot, CandidateFilter filter, int[][] segments) {
        this.snapshot = snapshot;
        this.filter = filter;
        this.segmentStarts = new int[segments.length + 1];
        int total = 0;
        for (int i = 0; i < segments.length; i++) {
            segmentStarts[i] = total;
            total += segments[i].length;
        }
        segmentStarts[segments.length] = total;
        if (segments.length == 1) {
            this.slots = segments[0];
        } else {
            this.slots = new int[total];
            for (int i = 0; i < segments.length; i++) {
                System.arraycopy(segments[i], 0, slots, segmentStarts[i], segments[i].length);
            }
        }
        this.deadlines = new long[total];
        this.healths = new ProxyHealth[total];
        this.capacities = new CapacityCell[total];
        long weight = 0;
        for (int i = 0; i < total; i++) {
            int slot = slots[i];
            weight += snapshot.weight(slot);
            deadlines[i] = snapshot.deadlineNanos(slot);
            healths[i] = snapshot.health(slot);
            capacities[i] = snapshot.capacity(slot);
        }
        this.totalWeight = weight;
        this.minRemainingTtlNanos = Math.max(1, saturatedNanos(filter.minRemainingTtl()));
        this.maxHealthAgeNanos = saturatedNanos(filter.maxHealthAge());
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The snapshot the slots refer to.
     *
     * @return the snapshot that computed this set
     */
    public PoolSnapshot snapshot() {
        return snapshot;
    }

    /**
     * The filter this set was computed for (the snapshot's identity cache compares it by reference).
     *
     * @return the filter
     */
    public CandidateFilter filter() {
        return filter;
    }

    /**
     * How many candidates there are, across all segments.
     *
     * @return the count
     */
    public int size() {
        return slots.length;
    }

    /**
     * Whether no proxy passes the filter's static part.
     *
     * @return true if {@link #size()} is 0
     */
    public boolean isEmpty() {
        return slots.length == 0;
    }

    /**
     * The snapshot slot of candidate {@code index} (0 ≤ index &lt; {@link #size()}).
     *
     * @param index a candidate index
     * @return a slot of {@link #snapshot()}
     */
    public int slotAt(int index) {
        return slots[index];
    }

    /**
     * {@link PoolSnapshot#deadlineNanos} of candidate {@code index}'s slot, read from this set's own array.
     *
     * @param index a candidate index
     * @return a ticker deadline, or {@link PoolSnapshot#NO_DEADLINE}
     */
    public long deadlineAt(int index) {
        return deadlines[index];
    }

    /**
     * {@link PoolSnapshot#health} of candidate {@code index}'s slot, read from this set's own array.
     *
     * @param index a candidate index
     * @return the proxy's live health
     */
    public ProxyHealth healthAt(int index) {
        return healths[index];
    }

    /**
     * {@link PoolSnapshot#capacity} of candidate {@code index}'s slot, read from this set's own array.
     *
     * @param index a candidate index
     * @return the proxy's capacity cell
     */
    public CapacityCell capacityAt(int index) {
        return capacities[index];
    }

    /**
     * One segment per upstream of the filter, in routing order; 1 when the filter names none.
     *
     * @return the number of segments, at least 1
     */
    public int segmentCount() {
        return segmentStarts.length - 1;
    }

    /**
     * First candidate index of segment {@code segment}.
     *
     * @param segment 0..segmentCount()-1
     * @return a candidate index
     */
    public int segmentStart(int segment) {
        return segmentStarts[segment];
    }

    /**
     * One past the last candidate index of segment {@code segment}.
     *
     * @param segment 0..segmentCount()-1
     * @return a candidate index; equal to the start for an empty segment
     */
    public int segmentEnd(int segment) {
        return segmentStarts[segment + 1];
    }

    /**
     * Whether snapshot slot {@code slot} is a candidate.
     *
     * @param slot a slot of {@link #snapshot()}
     * @return true if it is a candidate
     */
    public boolean contains(int slot) {
        return indexOf(slot) >= 0;
    }

    /**
     * The candidate index of snapshot slot {@code slot}, or -1.
     *
     * @param slot a slot of {@link #snapshot()}
     * @return its candidate index, or -1
     */
    public int indexOf(int slot) {
        for (int s = 0; s < segmentStarts.length - 1; s++) {
            int at = Arrays.binarySearch(slots, segmentStarts[s], segmentStarts[s + 1], slot);
            if (at >= 0) {
                return at;
            }
        }
        return -1;
    }

    /**
     * Sum of the candidates' base weights.
     *
     * @return the sum, before health adjustments
     */
    public long totalWeight() {
        return totalWeight;
    }

    /**
     * The filter's minimum remaining TTL in nanoseconds, at least 1 (an expired proxy never qualifies).
     *
     * @return nanoseconds, saturated at {@link Long#MAX_VALUE}
     */
    public long minRemainingTtlNanos() {
        return minRemainingTtlNanos;
    }

    /**
     * The filter's maximum health age in nanoseconds; 0 = no limit.
     *
     * @return nanoseconds, saturated at {@link Long#MAX_VALUE}
     */
    public long maxHealthAgeNanos() {
        return maxHealthAgeNanos;
    }

    /**
     * A copy of the candidate slots in candidate order (tests, admin views).
     *
     * @return a new array
     */
    public int[] toSlotArray() {
        return slots.clone();
    }

    /**
     * The value {@code key} derives from this set, computed on first use (under this set's lock, so
     * at most once) and kept for the life of the set.
     *
     * @param <T> the derived value's type
     * @param key the kind of value
     * @return the value, never null
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(DerivedKey<T> key) {
        Object value = derived.getAcquire(key.index());
        if (value == null) {
            value = computeDerived(key);
        }
        return (T) value;
    }

    private Object computeDerived(DerivedKey<?> key) {
        synchronized (derivedLock) {
            Object value = derived.get(key.index());
            if (value == null) {
                value = key.compute(this);
                derived.setRelease(key.index(), value);
            }
            return value;
        }
    }

    @Override
    public String toString() {
        return "CandidateSet[" + slots.length + " of snapshot v" + snapshot.version() + ", " + segmentCount()
                + " segment(s)]";
    }
}
