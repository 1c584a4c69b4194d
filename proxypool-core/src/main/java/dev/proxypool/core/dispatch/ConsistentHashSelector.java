package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * {@link Strategy#CONSISTENT_HASH}: the request's hash key (target host or caller key) maps to a
 * proxy through a {@link HashRing}, so the same key keeps its proxy across picks and snapshots.
 *
 * <p>When the owner is unusable right now, the pick walks the ring clockwise for up to
 * {@value #RING_WALK} further points (a deterministic order: other keys' owners, spread over the
 * set, rather than one neighbour in candidate order), then scans the candidates linearly from the
 * owner. Deterministic for a given key and pool state. Cost: one string hash plus one directory lookup,
 * O(len(key)) plus an O(1) ring lookup; lock-free; no allocation.
 */
final class ConsistentHashSelector implements Selector {

    static final ConsistentHashSelector INSTANCE = new ConsistentHashSelector();

    private static final int RING_WALK = 32;

    private ConsistentHashSelector() {}

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        HashRing ring = set.derived(HashRing.KEY);
        int position = ring.positionOf(Hash64.of(r.hashKey()));
        int owner = ring.candidateAt(position);
        int walk = Math.min(RING_WALK, ring.size());
        for (int k = 0; k < walk; k++) {
            int t = CandidateGate.tryTakeAt(s, set, ring.candidateAt(position + k), r, now);
            if (t != CandidateGate.NONE) {
                return t;
            }
        }
        return CandidateGate.scan(s, set, 0, set.size(), owner, r, now);
    }
}
