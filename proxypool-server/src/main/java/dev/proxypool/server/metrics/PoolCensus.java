package dev.proxypool.server.metrics;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.readiness.RoutingCandidates;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One count of the pool for a scrape: per upstream the store's available/disabled counts and the
 * snapshot's health states, per routing its candidates, plus capacity and snapshot facts. Taking it
 * costs one store call ({@code countsByUpstream}, O(upstreams)) and one pass over the snapshot's
 * slots (O(n × routings) predicate checks, no allocation per slot); {@link PoolMetrics} takes at
 * most one per scrape interval however many gauges read it.
 *
 * @param upstreams     counts by upstream name
 * @param routings      the routings at the census, in routing order
 * @param candidates    per routing name: snapshot proxies it can serve (its upstreams, protocols
 *                      and labels; {@link RoutingCandidates#candidate}) that are healthy or
 *                      probe-allowed, i.e. neither cooling nor disabled
 * @param storeUp       whether the store answered (else the store counts are the previous ones)
 * @param inFlight      capacity in use: reservations in flight over every proxy
 * @param capacity      sum of the per-proxy concurrency limits of the snapshot
 * @param version       the snapshot's version
 * @param ageSeconds    seconds since the snapshot was built (monotonic clock)
 */
record PoolCensus(
        Map<String, Counts> upstreams,
        List<RoutingRule> routings,
        Map<String, Integer> candidates,
        boolean storeUp,
        int inFlight,
        long capacity,
        long version,
        double ageSeconds) {

    /** Per upstream: store states and health states. */
    record Counts(int available, int disabled, int[] health) {

        int health(HealthState state) {
            return health[state.ordinal()];
        }
    }

    static final PoolCensus EMPTY = new PoolCensus(Map.of(), List.of(), Map.of(), true, 0, 0, 0, 0);

    /** @param previous the last census, whose store counts stand in when the store is down */
    static PoolCensus take(PoolEngine engine, PoolCensus previous) {
        Map<String, UpstreamCounts> stored;
        boolean storeUp = true;
        try {
            stored = engine.store().countsByUpstream();
        } catch (StoreUnavailableException e) {
            storeUp = false;
            Map<String, UpstreamCounts> last = new TreeMap<>();
            previous.upstreams().forEach((u, c) -> last.put(u, new UpstreamCounts(c.available(), c.disabled())));
            stored = last;
        }
        Map<String, int[]> health = new TreeMap<>();
        PoolSnapshot s = engine.snapshot();
        List<RoutingRule> routings = List.copyOf(engine.routings());
        int[] candidates = new int[routings.size()];
        long capacity = 0;
        String lastUpstream = null;
        int[] lastCounts = null;
        for (int slot = 0; slot < s.size(); slot++) {
            String upstream = s.proxy(slot).upstream();
            if (!upstream.equals(lastUpstream)) { // slots of one upstream are mostly adjacent
                lastUpstream = upstream;
                lastCounts = health.computeIfAbsent(upstream, u -> new int[HealthState.values().length]);
            }
            HealthState state = s.runtime(slot).health().state();
            lastCounts[state.ordinal()]++;
            capacity += s.runtime(slot).capacity().limit();
            if (state == HealthState.HEALTHY || state == HealthState.PROBE_ALLOWED) {
                for (int r = 0; r < candidates.length; r++) {
                    if (RoutingCandidates.candidate(routings.get(r), s.proxy(slot))) {
                        candidates[r]++;
                    }
                }
            }
        }
        Map<String, Counts> out = new TreeMap<>();
        for (Map.Entry<String, UpstreamCounts> e : stored.entrySet()) {
            out.put(
                    e.getKey(),
                    new Counts(
                            e.getValue().available(),
                            e.getValue().disabled(),
                            health.getOrDefault(e.getKey(), new int[HealthState.values().length])));
        }
        for (Map.Entry<String, int[]> e : health.entrySet()) {
            out.putIfAbsent(e.getKey(), new Counts(0, 0, e.getValue()));
        }
        Map<String, Integer> byRouting = new TreeMap<>();
        for (int r = 0; r < candidates.length; r++) {
            byRouting.put(routings.get(r).name(), candidates[r]);
        }
        double age = Math.max(0, engine.ticker().read() - s.builtAtNanos()) / 1e9;
        return new PoolCensus(
                Map.copyOf(out),
                routings,
                Map.copyOf(byRouting),
                storeUp,
                engine.inFlight(),
                capacity,
                s.version(),
                age);
    }

    /** The routing of that name at the census, or null when it is not configured (any more). */
    RoutingRule routing(String name) {
        for (RoutingRule r : routings) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The upstreams feeding {@code r}: its own list, else its filter's, else every upstream of the
     * census.
     */
    Set<String> upstreamsOf(RoutingRule r) {
        if (!r.upstreams().isEmpty()) {
            return Set.copyOf(r.upstreams());
        }
        if (!r.filter().upstreams().isEmpty()) {
            return Set.copyOf(r.filter().upstreams());
        }
        return upstreams.keySet();
    }

    Counts of(String upstream) {
        Counts c = upstreams.get(upstream);
        return c != null ? c : new Counts(0, 0, new int[HealthState.values().length]);
    }
}
