package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.DerivedKey;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One period of a smooth weighted round-robin sequence over a candidate set, computed once, plus
 * the shared cursor into it. A pick is then one {@code getAndIncrement} and one array read.
 *
 * <p>Why a precomputed period: nginx's smooth WRR ("each peer's current weight += its weight; pick
 * the largest; subtract the total from it") costs O(n) per pick and needs every peer's mutable
 * state updated together, i.e. a lock. With static weights it is periodic: over W = Σ weights steps
 * every peer is chosen exactly its weight times and all current weights return to zero. So the
 * period is computed once and replayed:
 * <ul>
 *   <li>when n·W ≤ {@value #EXACT_WORK_LIMIT} the period is the exact nginx sequence (ties go to the
 *       lower candidate index, as in nginx), e.g. weights 5,1,1 give {@code a a b a c a a};</li>
 *   <li>above that (large pools) an O(W) equivalent spreads each peer's w picks evenly over the
 *       period, at positions {@code (j + φ) · W / w} with a per-peer golden-ratio phase φ so that
 *       light peers do not bunch together; counts per period are still exact;</li>
 *   <li>when W exceeds {@code max(2^20, n)} the weights are scaled down proportionally (each at
 *       least 1) to bound the memory of the period.</li>
 * </ul>
 *
 * <p>Concurrency: the cursor is an {@link AtomicLong}; concurrent pickers take consecutive,
 * distinct positions, so the positions handed out are exactly the sequence. Dynamic weights
 * (slow start, health) are applied at pick time by thinning, see {@link SmoothWeightedSelector}.
 *
 * <p>Cost: built lazily on the first weighted pick of a candidate set (O(n·W) exact, O(n + W)
 * spread; about 2 ms for 1,000 proxies, tens of ms for 100,000), then O(1) per pick.
 */
final class WeightedSchedule {

    static final DerivedKey<WeightedSchedule> KEY = DerivedKey.of("smoothWeightedSchedule", WeightedSchedule::build);

    static final long EXACT_WORK_LIMIT = 1L << 22;
    private static final double GOLDEN_FRACTION = 0.6180339887498949;

    /** Candidate indices in smooth WRR order, one period. */
    private final int[] order;

    private final AtomicLong cursor = new AtomicLong();

    private WeightedSchedule(int[] order) {
        this.order = order;
    }

    /** The candidate index of the next turn. */
    int next() {
        long turn = cursor.getAndIncrement();
        return order[(int) (turn % order.length)];
    }

    int period() {
        return order.length;
    }

    /** The period as built (tests). */
    int[] order() {
        return order.clone();
    }

    static WeightedSchedule build(CandidateSet set) {
        int n = set.size();
        int[] weights = new int[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            weights[i] = set.snapshot().weight(set.slotAt(i));
            total += weights[i];
        }
        long cap = Math.max(1L << 20, n);
        if (total > cap) {
            long original = total;
            total = 0;
            for (int i = 0; i < n; i++) {
                weights[i] = (int) Math.max(1, weights[i] * cap / original);
                total += weights[i];
            }
        }
        int period = (int) total;
        return new WeightedSchedule(
                (long) n * period <= EXACT_WORK_LIMIT ? exact(weights, period) : spread(weights, period));
    }

    /** nginx smooth weighted round robin, one full period. */
    static int[] exact(int[] weights, int period) {
        int n = weights.length;
        long[] current = new long[n];
        int[] order = new int[period];
        for (int step = 0; step < period; step++) {
            int best = -1;
            for (int i = 0; i < n; i++) {
                current[i] += weights[i];
                if (best < 0 || current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= period;
            order[step] = best;
        }
        return order;
    }

    /** Evenly spread picks, counting-sorted by position: O(n + W). */
    static int[] spread(int[] weights, int period) {
        int[] starts = new int[period + 1];
        for (int i = 0; i < weights.length; i++) {
            double phase = fraction(i * GOLDEN_FRACTION);
            for (int j = 0; j < weights[i]; j++) {
                starts[position(j, phase, weights[i], period) + 1]++;
            }
        }
        for (int p = 0; p < period; p++) {
            starts[p + 1] += starts[p];
        }
        int[] order = new int[period];
        for (int i = 0; i < weights.length; i++) {
            double phase = fraction(i * GOLDEN_FRACTION);
            for (int j = 0; j < weights[i]; j++) {
                order[starts[position(j, phase, weights[i], period)]++] = i;
            }
        }
        return order;
    }

    private static int position(int j, double phase, int weight, int period) {
        return Math.min(period - 1, (int) ((j + phase) * period / weight));
    }

    private static double fraction(double x) {
        return x - Math.floor(x);
    }
}
