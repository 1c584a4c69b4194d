package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@link Strategy#RANDOM}: a uniformly random candidate. Up to {@value #DRAWS} independent draws
 * (so a busy proxy does not push its load onto its neighbour in candidate order), then a linear scan
 * from the last draw. O(1) expected per pick, lock-free, no allocation.
 */
final class RandomSelector implements Selector {

    static final RandomSelector INSTANCE = new RandomSelector();

    private static final int DRAWS = 3;

    private RandomSelector() {}

    @Override
    public int select(PoolSnapshot s, CandidateSet set, PickRequest r, long now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int n = set.size();
        int index = 0;
        for (int draw = 0; draw < DRAWS; draw++) {
            index = random.nextInt(n);
            int t = CandidateGate.tryTakeAt(s, set, index, r, now);
            if (t != CandidateGate.NONE) {
                return t;
            }
        }
        return CandidateGate.scan(s, set, 0, n, index, r, now);
    }
}
