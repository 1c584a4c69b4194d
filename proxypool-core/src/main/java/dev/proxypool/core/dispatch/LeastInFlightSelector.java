package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * {@link Strategy#LEAST_IN_FLIGHT}: power of two choices on the live in-flight count (reserved or
 * active requests on this worker), so idle proxies are preferred without a global scan. O(1) per
 * pick, lock-free, no allocation.
 */
final class LeastInFlightSelector extends TwoChoices {

    static final LeastInFlightSelector INSTANCE = new LeastInFlightSelector();

    private LeastInFlightSelector() {}

    @Override
    long cost(CandidateSet set, int index) {
        return set.capacityAt(index).inFlight();
    }

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        return selectIn(s, set, 0, set.size(), r, now);
    }
}
