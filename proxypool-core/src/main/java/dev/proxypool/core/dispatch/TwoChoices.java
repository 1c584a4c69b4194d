package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Power of two choices: draw two distinct random candidates of a range, try the better one by a
 * strategy's cost, then the other; repeat for {@value #ROUNDS} rounds, then scan the range linearly.
 * Comparing two random candidates instead of taking the global best is O(1), needs no shared
 * ordering structure, and avoids herding every caller onto the single best proxy (Mitzenmacher).
 * Stateless (randomness from {@link ThreadLocalRandom}), so thread-safe and lock-free; the costs
 * read are live counters, so two racing pickers may both prefer the same proxy, which capacity
 * reservation then arbitrates.
 */
abstract class TwoChoices implements Selector {

    private static final int ROUNDS = 2;

    /** Lower is better, for candidate {@code index} of {@code set}. Reads live counters; must not allocate. */
    abstract long cost(CandidateSet set, int index);

    /** Picks from candidate indices {@code [from, to)} (non-empty). */
    final int selectIn(PoolSnapshot s, CandidateSet set, int from, int to, PickRequest r, long now) {
        int n = to - from;
        if (n == 1) {
            return CandidateGate.tryTakeAt(s, set, from, r, now);
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int first = from;
        for (int round = 0; round < ROUNDS; round++) {
            int a = random.nextInt(n);
            int b = random.nextInt(n - 1);
            if (b >= a) {
                b++;
            }
            int indexA = from + a;
            int indexB = from + b;
            if (cost(set, indexB) < cost(set, indexA)) {
                int t = indexA;
                indexA = indexB;
                indexB = t;
            }
            first = indexA;
            int t = CandidateGate.tryTakeAt(s, set, indexA, r, now);
            if (t == CandidateGate.NONE) {
                t = CandidateGate.tryTakeAt(s, set, indexB, r, now);
            }
            if (t != CandidateGate.NONE) {
                return t;
            }
        }
        return CandidateGate.scan(s, set, from, to, first, r, now);
    }
}
