package dev.proxypool.core.rank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One greedy diversity pass of {@link Ranker}: the mutable working state of a single ranking.
 *
 * <p>{@code adjusted(i) = weighted(i) / (1 + a + s)}, {@code a} = picks so far from i's ASN,
 * {@code s} = picks so far from i's subnet. Three levels keep re-scoring rare:
 * <ol>
 *   <li><b>Cell</b>: the candidates of one (ASN, subnet) pair share their divisor at every moment,
 *       so a max-heap on {@code weighted} orders a cell exactly, forever.</li>
 *   <li><b>Group</b>: one per ASN (all unknown ASNs form one more group, whose {@code a} stays 0).
 *       Its cells sit in buckets by their subnet count {@code s}; inside a bucket every cell has
 *       the same divisor, so a max-heap of cells keyed by their top's {@code weighted} is exact.
 *       A cell whose subnet gained a pick moves to its new bucket lazily (one heap operation) when
 *       it surfaces. The group's best is the best bucket top.</li>
 *   <li><b>Global</b>: a max-heap of each group's best (value, candidate). A pick re-keys its own
 *       group at once; a pick elsewhere lowers a group only through a shared subnet, so keys stay
 *       upper bounds and are re-checked lazily when they reach the top.</li>
 * </ol>
 * A pick costs O(b log n), b = non-empty buckets of the group: distinct subnet pick counts among
 * its cells, at most about sqrt(2 × picks) and in practice a handful.
 * Ties go to the lower input index at every level, so the result equals the literal definition
 * (rescore everything each step), as {@code RankerReferenceTest} checks, up to floating-point
 * rounding between scores less than an ulp apart.
 */
final class GreedyPass {

    private final RankPolicy policy;
    private final RankCandidate[] c;
    private final double[] base;
    private final double[] weighted;
    private final int[] asnGroup;
    private final int[] asnCount;
    private final int[] subnetCount;
    private final int[] cellOf;
    private final int[] cellSubnet;
    private final ScoreHeap[] cellMembers;
    private final Group[] groups;
    private final List<RankResult.Ranked> active = new ArrayList<>();
    private final List<RankResult.Ranked> reserve = new ArrayList<>();
    private final List<RankResult.Dropped> dropped = new ArrayList<>();
    private int activeUnknown;
    private int reserveUnknown;

    /**
     * @param asnGroup    dense ASN index per candidate, -1 for an unknown ASN
     * @param subnetGroup dense subnet index per candidate, -1 for an unknown exit address
     */
    GreedyPass(
            RankPolicy policy,
            RankCandidate[] c,
            double[] base,
            double[] weighted,
            int[] asnGroup,
            int[] subnetGroup,
            int asnGroups,
            int subnetGroups) {
        this.policy = policy;
        this.c = c;
        this.base = base;
        this.weighted = weighted;
        this.asnGroup = asnGroup;
        this.asnCount = new int[asnGroups];
        this.subnetCount = new int[subnetGroups];
        this.groups = new Group[asnGroups + 1]; // the last one holds the unknown ASNs
        for (int g = 0; g < groups.length; g++) {
            groups[g] = new Group();
        }
        int n = c.length;
        cellOf = new int[n];
        Map<Long, Integer> cells = new HashMap<>();
        List<Integer> subnetOfCell = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long key = ((long) groupIndex(i) << 32) | (subnetGroup[i] + 1L);
            Integer cell = cells.get(key);
            if (cell == null) {
                cell = cells.size();
                cells.put(key, cell);
                subnetOfCell.add(subnetGroup[i]);
            }
            cellOf[i] = cell;
        }
        cellSubnet = new int[cells.size()];
        cellMembers = new ScoreHeap[cells.size()];
        for (int k = 0; k < cellSubnet.length; k++) {
            cellSubnet[k] = subnetOfCell.get(k);
        }
    }

    private int groupIndex(int i) {
        return asnGroup[i] >= 0 ? asnGroup[i] : groups.length - 1;
    }

    private int subnetCountOfCell(int cell) {
        return cellSubnet[cell] >= 0 ? subnetCount[cellSubnet[cell]] : 0;
    }

    private double adjusted(int i) {
        int same = subnetCountOfCell(cellOf[i]);
        if (asnGroup[i] >= 0) {
            same += asnCount[asnGroup[i]];
        }
        return weighted[i] / (1 + same);
    }

    RankResult run() {
        double min = policy.minScore();
        for (int i = 0; i < c.length; i++) {
            if (weighted[i] < min) {
                dropped.add(new RankResult.Dropped(c[i], RankResult.Reason.BELOW_MIN_SCORE, weighted[i]));
                continue;
            }
            int cell = cellOf[i];
            if (cellMembers[cell] == null) {
                cellMembers[cell] = new ScoreHeap(4);
            }
            cellMembers[cell].push(weighted[i], i);
        }
        for (int cell = 0; cell < cellMembers.length; cell++) {
            if (cellMembers[cell] != null) {
                int top = cellMembers[cell].topId();
                groups[groupIndex(top)].bucket(0).push(weighted[top], top);
            }
        }
        ScoreHeap global = new ScoreHeap(groups.length);
        for (Group g : groups) {
            if (g.findBest()) {
                global.push(g.bestValue, g.bestId);
            }
        }
        while (global.size() > 0 && !(active.size() == policy.poolSize() && reserve.size() == policy.reserveSize())) {
            int keyId = global.topId();
            double key = global.topKey();
            global.pop();
            Group g = groups[groupIndex(keyId)];
            if (!g.findBest()) {
                continue;
            }
            double v = g.bestValue;
            int i = g.bestId;
            if (v < min) {
                g.dropAll(); // v is the group's best, and scores only fall
            } else if ((v == key && i == keyId)
                    || global.size() == 0
                    || ScoreHeap.before(v, i, global.topKey(), global.topId())) {
                g.removeBest();
                choose(i, v);
                if (g.findBest()) {
                    global.push(g.bestValue, g.bestId);
                }
            } else {
                global.push(v, i); // lowered by a pick in a shared subnet
            }
        }
        for (Group g : groups) {
            g.dropAll();
        }
        return new RankResult(active, reserve, dropped);
    }

    private void choose(int i, double score) {
        boolean unknown = asnGroup[i] < 0;
        RankResult.Ranked r = new RankResult.Ranked(c[i], active.size() + reserve.size() + 1, base[i], score);
        if (active.size() < policy.poolSize() && (!unknown || activeUnknown < policy.maxUnknownActive())) {
            active.add(r);
            activeUnknown += unknown ? 1 : 0;
        } else if (reserve.size() < policy.reserveSize() && (!unknown || reserveUnknown < policy.maxUnknownReserve())) {
            reserve.add(r);
            reserveUnknown += unknown ? 1 : 0;
        } else {
            dropped.add(new RankResult.Dropped(
                    c[i], unknown ? RankResult.Reason.UNKNOWN_ASN_SHARE : RankResult.Reason.RESERVE_FULL, score));
            return;
        }
        if (asnGroup[i] >= 0) {
            asnCount[asnGroup[i]]++;
        }
        int subnet = cellSubnet[cellOf[i]];
        if (subnet >= 0) {
            subnetCount[subnet]++;
        }
    }

    /**
     * The remaining cells of one ASN (or of all unknown ASNs), bucketed by subnet count; only
     * non-empty buckets are kept, so a group whose one crowded subnet has had thousands of picks
     * still has one bucket. A bucket holds each cell once, keyed by its top member (weighted
     * score, index).
     */
    private final class Group {
        private final TreeMap<Integer, ScoreHeap> buckets = new TreeMap<>();
        private double bestValue;
        private int bestId;
        private int bestBucket;

        ScoreHeap bucket(int s) {
            return buckets.computeIfAbsent(s, k -> new ScoreHeap(4));
        }

        /** Finds the best remaining member and its adjusted score; false when the group is empty. */
        boolean findBest() {
            bestId = -1;
            Integer b = buckets.isEmpty() ? null : buckets.firstKey();
            while (b != null) {
                ScoreHeap h = buckets.get(b);
                while (h.size() > 0) {
                    int i = h.topId();
                    int s = subnetCountOfCell(cellOf[i]);
                    if (s == b) {
                        double v = adjusted(i);
                        if (bestId < 0 || ScoreHeap.before(v, i, bestValue, bestId)) {
                            bestValue = v;
                            bestId = i;
                            bestBucket = b;
                        }
                        break;
                    }
                    h.pop(); // its subnet gained a pick: the cell moves up, visited later in this loop
                    bucket(s).push(weighted[i], i);
                }
                if (h.size() == 0) {
                    buckets.remove(b);
                }
                b = buckets.higherKey(b);
            }
            return bestId >= 0;
        }

        /** Removes the member {@link #findBest()} found; its cell stays keyed by its next member. */
        void removeBest() {
            ScoreHeap h = buckets.get(bestBucket);
            h.pop();
            ScoreHeap members = cellMembers[cellOf[bestId]];
            members.pop();
            if (members.size() > 0) {
                h.push(members.topKey(), members.topId());
            } else if (h.size() == 0) {
                buckets.remove(bestBucket);
            }
        }

        void dropAll() {
            double min = policy.minScore();
            for (ScoreHeap h : buckets.values()) {
                for (int k = 0; k < h.size(); k++) {
                    ScoreHeap members = cellMembers[cellOf[h.idAt(k)]];
                    for (int m = 0; m < members.size(); m++) {
                        int i = members.idAt(m);
                        double s = adjusted(i);
                        dropped.add(new RankResult.Dropped(
                                c[i], s < min ? RankResult.Reason.BELOW_MIN_SCORE : RankResult.Reason.RESERVE_FULL, s));
                    }
                    members.clear();
                }
            }
            buckets.clear();
        }
    }
}
