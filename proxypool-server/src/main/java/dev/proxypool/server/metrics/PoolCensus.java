package dev.proxypool.server.metrics;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.engine.PoolEngine;
import java.util.Map;
import java.util.TreeMap;

/**
 * One count of the pool for a scrape: per upstream the store's available/disabled counts and the
 * snapshot's health states, plus capacity and snapshot facts. Taking it costs one store call
 * ({@code countsByUpstream}, O(upstreams)) and one pass over the snapshot's slots (O(n), no
 * allocation per slot); {@link PoolMetrics} takes at most one per scrape interval however many
 * gauges read it.
 *
 * @param upstreams     counts by upstream name
 * @param storeUp       whether the store answered (else the store counts are the previous ones)
 * @param inFlight      capacity in use: reservations in flight over every proxy
 * @param capacity      sum of the per-proxy concurrency limits of the snapshot
 * @param version       the snapshot's version
 * @param ageSeconds    seconds since the snapshot was built (monotonic clock)
 */
record PoolCensus(
        Map<String, Counts> upstreams, boolean storeUp, int inFlight, long capacity, long version, double ageSeconds) {

    /** Per upstream: store states and health states. */
    record Counts(int available, int disabled, int[] health) {

        int health(HealthState state) {
            return health[state.ordinal()];
        }
    }

    static final PoolCensus EMPTY = new PoolCensus(Map.of(), true, 0, 0, 0, 0);

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
        long capacity = 0;
        String lastUpstream = null;
        int[] lastCounts = null;
        for (int slot = 0; slot < s.size(); slot++) {
            String upstream = s.proxy(slot).upstream();
            if (!upstream.equals(lastUpstream)) { // slots of one upstream are mostly adjacent
                lastUpstream = upstream;
                lastCounts = health.computeIfAbsent(upstream, u -> new int[HealthState.values().length]);
            }
            lastCounts[s.runtime(slot).health().state().ordinal()]++;
            capacity += s.runtime(slot).capacity().limit();
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
        double age = Math.max(0, engine.ticker().read() - s.builtAtNanos()) / 1e9;
        return new PoolCensus(Map.copyOf(out), storeUp, engine.inFlight(), capacity, s.version(), age);
    }

    Counts of(String upstream) {
        Counts c = upstreams.get(upstream);
        return c != null ? c : new Counts(0, 0, new int[HealthState.values().length]);
    }
}
