package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * {@link Strategy#LATENCY}: power of two choices on {@code ProxyHealth.latencyEwmaNanos}, so faster
 * proxies win most comparisons but the fastest one is not flooded (it is chosen only when drawn,
 * at most about 2/n of picks). An unknown latency (0, never measured) counts as the best, so new
 * proxies get measured. O(1) per pick, lock-free, no allocation.
 */
final class LatencySelector extends TwoChoices {

    static final LatencySelector INSTANCE = new LatencySelector();

    private LatencySelector() {}

    @Override
    long cost(CandidateSet set, int index) {
        return set.healthAt(index).latencyEwmaNanos();
    }

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        return selectIn(s, set, 0, set.size(), r, now);
    }
}
