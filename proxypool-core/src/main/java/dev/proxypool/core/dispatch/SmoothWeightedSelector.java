package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@link Strategy#ROUND_ROBIN} and {@link Strategy#WEIGHTED}: smooth weighted round robin (nginx
 * semantics) over the candidates' weights. The two strategies are the same algorithm; with equal
 * weights it is a plain rotation.
 *
 * <p>Algorithm: replay the precomputed period of {@link WeightedSchedule} through its atomic cursor.
 * The dynamic part of the weight ({@code ProxyHealth.effectiveWeight}: slow start, EWMA) is applied
 * by thinning: a turn of a proxy whose share of its base weight ({@code ProxyHealth.weightShare}) is
 * s &lt; 1 is taken only with probability s, otherwise it passes to the next turn, so over time each
 * proxy serves in proportion to its effective weight, weight-1 proxies included (the period is built
 * from base weights). Turns of proxies that are unusable right now
 * (full, cooling, expiring, excluded, banned) pass to the next turn as in nginx, for up to
 * {@value #MAX_TURNS} turns; then a linear scan over the whole set from the last turn guarantees the
 * pick fails only when no candidate is usable.
 *
 * <p>Cost: O(1) per pick in the common case (one CAS on the shared cursor); thread-safe and
 * lock-free; allocates nothing.
 */
final class SmoothWeightedSelector implements Selector {

    static final SmoothWeightedSelector INSTANCE = new SmoothWeightedSelector();

    private static final int MAX_TURNS = 8;

    private SmoothWeightedSelector() {}

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        WeightedSchedule schedule = set.derived(WeightedSchedule.KEY);
        int index = 0;
        for (int turn = 0; turn < MAX_TURNS; turn++) {
            index = schedule.next();
            if (thinnedOut(set, index, now)) {
                continue;
            }
            int t = CandidateGate.tryTakeAt(s, set, index, r, now);
            if (t != CandidateGate.NONE) {
                return t;
            }
        }
        return CandidateGate.scan(s, set, 0, set.size(), index, r, now);
    }

    /**
     * Thinning by the unrounded share (not by {@code effectiveWeight / base}): with the default weight 1
     * the rounded effective weight is always 1, which would switch slow start off for most pools.
     */
    private static boolean thinnedOut(CandidateSet set, int index, long now) {
        double share = set.healthAt(index).weightShare(now);
        return share < 1.0 && ThreadLocalRandom.current().nextDouble() >= share;
    }
}
