package dev.proxypool.core.snapshot;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One immutable, versioned view of the pool: what a pick reads (docs/design.md#snapshots-and-distribution, N1).
 *
 * <p>Proxies sit in int <em>slots</em> {@code 0..size()-1}. Per slot the snapshot holds the proxy,
 * its long-lived {@link ProxyRuntime} (capacity and health survive snapshot swaps, so a request
 * started on an old snapshot releases into the same counter; the capacity cell and health are also
 * kept in arrays of their own, saving a dependent memory load per candidate on the hot path), its
 * base weight, and its expiry as a
 * {@link dev.proxypool.core.time.Ticker} deadline in nanoseconds ({@link #NO_DEADLINE} when the
 * proxy never expires), converted once at build time from the wall-clock {@code expiresAt} so the
 * hot path compares two longs.
 *
 * <p>Indices: ascending slot lists per upstream, per protocol and per label {@code key=value}.
 * {@link #candidates(CandidateFilter)} intersects them (upstream lists kept apart as segments in
 * routing order) and memoizes the result per distinct filter, so a filtered pick never scans the
 * pool. The memo holds at most {@value #MAX_MEMOIZED_FILTERS} filters; further ones are computed
 * on every call (correct, slower). In front of the memo sits a tiny cache keyed by the filter
 * object's identity: routings reuse one filter instance, and this avoids hashing the filter record
 * (its lists and maps) on every pick.
 *
 * <p>Complexity: build O(n · labels); {@code candidates} O(1) when memoized, else O(sum of the
 * index lists involved); {@link #slotOf(String)} O(1).
 *
 * <p>Thread-safety: all fields are final and point to arrays never written after construction, so
 * a snapshot published by any means (see {@link LiveSnapshot}) is safely visible in full. The memo
 * and the identity cache are written concurrently; both hold immutable {@link CandidateSet}s, and
 * the identity cache's racy plain writes are benign (a reader sees an older entry or misses).
 */
public final class PoolSnapshot {

    /** The deadline of a proxy that never expires. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /** Bound of memoized candidate sets per snapshot. */
    public static final int MAX_MEMOIZED_FILTERS = 4096;

    private static final int RECENT_SIZE = 64;

    private final long version;
    private final Instant generatedAt;
    private final long builtAtNanos;
    private final Proxy[] proxies;
    private final ProxyRuntime[] runtimes;
    private final CapacityCell[] capacities;
    private final ProxyHealth[] healths;
    private final long[] deadlines;
    private final int[] weights;
    private final Map<String, Integer> slotById;
    private final Map<String, int[]> byUpstream;
    private final int[][] byProtocol;
    private final Map<String, Map<String, int[]>> byLabel;
    private final int[] allSlots;
    private final ConcurrentHashMap<CandidateFilter, CandidateSet> memo = new ConcurrentHashMap<>();
    private final CandidateSet[] recent = new CandidateSet[RECENT_SIZE];

    PoolSnapshot(
            long version,
            Instant generatedAt,
            long builtAtNanos,
            Proxy[] proxies,
            ProxyRuntime[] runtimes,
            long[] deadlines,
            Map<String, Integer> slotById,
            Map<String, int[]> byUpstream,
            int[][] byProtocol,
            Map<String, Map<String, int[]>> byLabel) {
        this.version = version;
        this.generatedAt = generatedAt;
        this.builtAtNanos = builtAtNanos;
        this.proxies = proxies;
        this.runtimes = runtimes;
        this.capacities = new CapacityCell[runtimes.length];
        this.healths = new ProxyHealth[runtimes.length];
        for (int i = 0; i < runtimes.length; i++) {
            capacities[i] = runtimes[i].capacity();
            healths[i] = runtimes[i].health();
        }
        this.deadlines = deadlines;
        this.weights = new int[proxies.length];
        for (int i = 0; i < proxies.length; i++) {
            weights[i] = proxies[i].weight();
        }
        this.slotById = slotById;
        this.byUpstream = byUpstream;
        this.byProtocol = byProtocol;
        this.byLabel = byLabel;
        this.allSlots = new int[proxies.length];
        for (int i = 0; i < allSlots.length; i++) {
            allSlots[i] = i;
        }
    }

    /**
     * An empty snapshot of version 0: what a worker serves before the first real build.
     *
     * @param generatedAt the wall-clock time to report as the build time
     * @param nowNanos    the current {@link dev.proxypool.core.time.Ticker} reading
     * @return a snapshot with no proxies, whose every candidate set is empty
     */
    public static PoolSnapshot empty(Instant generatedAt, long nowNanos) {
        return new PoolSnapshot(
                0,
                generatedAt,
                nowNanos,
                new Proxy[0],
                new ProxyRuntime[0],
                new long[0],
                Map.of(),
                Map.of(),
                new int[Protocol.values().length][0],
                Map.of());
    }

    /**
     * The snapshot's version: increases with every build that replaces it, so
     * {@link LiveSnapshot} and followers can tell newer from older.
     *
     * @return the version, 0 for {@link #empty}
     */
    public long version() {
        return version;
    }

    /**
     * Wall-clock time of the build.
     *
     * @return the instant passed to the builder
     */
    public Instant generatedAt() {
        return generatedAt;
    }

    /**
     * Ticker reading at build time: the origin of every deadline.
     *
     * @return a ticker reading
     */
    public long builtAtNanos() {
        return builtAtNanos;
    }

    /**
     * How many proxies (slots) the snapshot holds.
     *
     * @return the slot count
     */
    public int size() {
        return proxies.length;
    }

    /**
     * The proxy in a slot.
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return the proxy
     * @throws ArrayIndexOutOfBoundsException if the slot is out of range
     */
    public Proxy proxy(int slot) {
        return proxies[slot];
    }

    /**
     * The long-lived runtime of the proxy in a slot.
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return the runtime, shared with every other snapshot that lists the proxy
     */
    public ProxyRuntime runtime(int slot) {
        return runtimes[slot];
    }

    /**
     * {@code runtime(slot).capacity()} without the hop through the runtime (hot path).
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return the proxy's capacity cell on this worker
     */
    public CapacityCell capacity(int slot) {
        return capacities[slot];
    }

    /**
     * {@code runtime(slot).health()} without the hop through the runtime (hot path).
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return the proxy's live health
     */
    public ProxyHealth health(int slot) {
        return healths[slot];
    }

    /**
     * Ticker deadline of the proxy's expiry, or {@link #NO_DEADLINE}.
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return a ticker reading, or {@link #NO_DEADLINE}
     */
    public long deadlineNanos(int slot) {
        return deadlines[slot];
    }

    /**
     * Nanoseconds of life left at ticker reading {@code nowNanos} ({@link #NO_DEADLINE} when it never expires).
     *
     * @param slot a slot in {@code 0..size()-1}
     * @param nowNanos the current ticker reading
     * @return nanoseconds, negative once expired; {@link #NO_DEADLINE} for a proxy that never expires
     */
    public long remainingNanos(int slot, long nowNanos) {
        long d = deadlines[slot];
        return d == NO_DEADLINE ? NO_DEADLINE : d - nowNanos;
    }

    /**
     * Base selection weight of the proxy in {@code slot}.
     *
     * @param slot a slot in {@code 0..size()-1}
     * @return the configured weight, at least 1 (health adjusts it per pick)
     */
    public int weight(int slot) {
        return weights[slot];
    }

    /**
     * The slot of proxy {@code id}, or -1 when it is not in this snapshot.
     *
     * @param id a proxy's opaque id
     * @return the slot, or -1
     */
    public int slotOf(String id) {
        Integer slot = slotById.get(id);
        return slot == null ? -1 : slot;
    }

    /**
     * All proxies in slot order (a copy; not for the hot path).
     *
     * @return an unmodifiable list
     */
    public List<Proxy> proxies() {
        return List.of(proxies);
    }

    /**
     * Upstream names present, sorted.
     *
     * @return a new, modifiable list, sorted by name
     */
    public List<String> upstreams() {
        List<String> names = new ArrayList<>(byUpstream.keySet());
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /**
     * Proxies per upstream (admin views, low-water marks).
     *
     * @param upstream an upstream name
     * @return the count; 0 for an unknown upstream
     */
    public int sizeOfUpstream(String upstream) {
        int[] slots = byUpstream.get(upstream);
        return slots == null ? 0 : slots.length;
    }

    /**
     * The candidates passing {@code filter}'s upstreams, protocols and labels: memoized per distinct
     * filter for the life of this snapshot. Remaining TTL and health age are checked per pick.
     *
     * @param filter a routing's filter; reuse one instance per routing for the identity cache
     * @return the candidate slots, in segments per upstream in the filter's order; never null
     */
    public CandidateSet candidates(CandidateFilter filter) {
        int at = System.identityHashCode(filter) & (RECENT_SIZE - 1);
        CandidateSet set = recent[at];
        if (set != null && set.filter() == filter) {
            return set;
        }
        set = memo.get(filter);
        if (set == null) {
            set = compute(filter);
            if (memo.size() < MAX_MEMOIZED_FILTERS) {
                CandidateSet raced = memo.putIfAbsent(filter, set);
                if (raced != null) {
                    set = raced;
                }
            } else {
                return set;
            }
        }
        recent[at] = set;
        return set;
    }

    /**
     * How many distinct filters are memoized now.
     *
     * @return at most {@value #MAX_MEMOIZED_FILTERS}
     */
    public int memoizedFilters() {
        return memo.size();
    }

    private CandidateSet compute(CandidateFilter filter) {
        int[] rest = null; // null = every slot
        Set<Protocol> protocols = filter.protocols();
        if (!protocols.isEmpty()) {
            int[][] lists = new int[protocols.size()][];
            int i = 0;
            for (Protocol p : protocols) {
                lists[i++] = byProtocol[p.ordinal()];
            }
            rest = lists.length == 1 ? lists[0] : SortedSlots.union(lists);
        }
        LabelSelector labels = filter.labels();
        if (!labels.isEmpty()) {
            int[][] lists = new int[labels.required().size()][];
            int i = 0;
            for (Map.Entry<String, String> e : labels.required().entrySet()) {
                Map<String, int[]> values = byLabel.get(e.getKey());
                int[] slots = values == null ? null : values.get(e.getValue());
                lists[i++] = slots == null ? SortedSlots.EMPTY : slots;
            }
            Arrays.sort(lists, Comparator.comparingInt(l -> l.length)); // smallest first: cheapest intersections
            for (int[] l : lists) {
                rest = rest == null ? l : SortedSlots.intersect(rest, l);
            }
        }
        List<String> upstreams = filter.upstreams();
        int[][] segments;
        if (upstreams.isEmpty()) {
            segments = new int[][] {rest == null ? allSlots : rest};
        } else {
            segments = new int[upstreams.size()][];
            for (int i = 0; i < segments.length; i++) {
                int[] slots = byUpstream.getOrDefault(upstreams.get(i), SortedSlots.EMPTY);
                segments[i] = rest == null ? slots : SortedSlots.intersect(slots, rest);
            }
        }
        return new CandidateSet(this, filter, segments);
    }

    @Override
    public String toString() {
        return "PoolSnapshot[v" + version + ", " + proxies.length + " proxies, generatedAt=" + generatedAt + "]";
    }
}
