package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * {@link Strategy#SEQUENTIAL} (docs/design.md#sequential-switching, Q5): serve from the routing's current upstream
 * ({@code filter.upstreams().get(request.upstreamIndex())}); when none of its proxies is usable,
 * fall back to the earlier upstreams in list order (first, second, ...), whose already-fetched
 * proxies keep serving until they drain or expire. Later upstreams are not used: the routing has
 * not switched to them. (With {@code exhaustion: loop}, after wrapping to index 0 the old later
 * upstreams count as "later" and are not drained; their proxies expire.)
 *
 * <p>Within one upstream the choice is least-in-flight by power of two choices. Each upstream's
 * proxies are one contiguous segment of the candidate set, so the whole walk is O(1) expected and
 * O(candidates of the current and earlier upstreams) when all are unusable. Lock-free, no
 * allocation.
 */
final class SequentialSelector extends TwoChoices {

    static final SequentialSelector INSTANCE = new SequentialSelector();

    private SequentialSelector() {}

    @Override
    long cost(CandidateSet set, int index) {
        return set.capacityAt(index).inFlight();
    }

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        int current = r.upstreamIndex();
        int t = selectInSegment(s, set, current, r, now);
        for (int segment = 0; t == CandidateGate.NONE && segment < current; segment++) {
            t = selectInSegment(s, set, segment, r, now);
        }
        return t;
    }

    private int selectInSegment(PoolSnapshot s, CandidateSet set, int segment, PickRequest r, long now) {
        int from = set.segmentStart(segment);
        int to = set.segmentEnd(segment);
        return from == to ? CandidateGate.NONE : selectIn(s, set, from, to, r, now);
    }

    @Override
    public int rangeTo(CandidateSet set, PickRequest r) {
        return set.segmentEnd(r.upstreamIndex());
    }
}
