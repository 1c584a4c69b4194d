package dev.proxypool.core.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.ExitNetwork;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The lazy-heap ranker against a plain O(n²) greedy that recomputes every score each step: on
 * random inputs with crowded ASNs and subnets both must choose the same proxies in the same order
 * with the same scores, and drop the rest for the same reasons.
 */
class RankerReferenceTest {

    @Test
    void lazyGreedyEqualsNaiveGreedyOnRandomInputs() {
        compare(12, 15);
    }

    @Test
    void lazyGreedyEqualsNaiveGreedyWhenFewAsnsAndSubnetsAreCrowded() {
        compare(2, 3);
    }

    private static void compare(int asns, int subnets) {
        for (int seed = 1; seed <= 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<RankCandidate> in = randomCandidates(rnd, 200 + rnd.nextInt(400), asns, subnets);
            RankPolicy policy = new RankPolicy(
                    rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble(5, 40),
                    1 + rnd.nextInt(80),
                    rnd.nextInt(200),
                    rnd.nextDouble(0.1, 1.0),
                    rnd.nextDouble(0, 1));
            RankResult fast = new Ranker(policy).rank(in);
            RankResult slow = naive(in, policy);
            String ctx = "seed " + seed + " " + policy;
            assertEquals(summary(slow.active()), summary(fast.active()), ctx);
            assertEquals(summary(slow.reserve()), summary(fast.reserve()), ctx);
            assertEquals(reasons(slow), reasons(fast), ctx);
            RankerTest.assertEveryCandidateOnce(in, fast);
        }
    }

    static List<RankCandidate> randomCandidates(SplittableRandom rnd, int n, int asns, int subnets) {
        List<RankCandidate> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long asn = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(asns);
            String ip = switch (rnd.nextInt(10)) {
                case 0 -> "";
                case 1, 2 -> "2001:db8:" + Integer.toHexString(rnd.nextInt(subnets)) + "::" + Integer.toHexString(i);
                default -> "10.0." + rnd.nextInt(subnets) + "." + (i % 250);
            };
            // integer latencies make exact score ties common, exercising the tie rule
            in.add(new RankCandidate("p" + i, 1 + rnd.nextInt(120), rnd.nextInt(14), new ExitNetwork(ip, asn, "", "")));
        }
        return in;
    }

    private static List<String> summary(List<RankResult.Ranked> r) {
        return r.stream()
                .map(x -> x.candidate().proxyId() + "@" + x.position() + "=" + x.score())
                .toList();
    }

    private static Map<String, RankResult.Reason> reasons(RankResult r) {
        Map<String, RankResult.Reason> m = new TreeMap<>();
        r.dropped().forEach(d -> m.put(d.candidate().proxyId(), d.reason()));
        return m;
    }

    /** The definition, literally: each step rescore everything left and take the best. */
    static RankResult naive(List<RankCandidate> in, RankPolicy p) {
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            left.add(i);
        }
        Map<Long, Integer> asnCount = new TreeMap<>();
        Map<Long, Integer> subnetCount = new TreeMap<>();
        List<RankResult.Ranked> active = new ArrayList<>();
        List<RankResult.Ranked> reserve = new ArrayList<>();
        List<RankResult.Dropped> dropped = new ArrayList<>();
        int activeUnknown = 0;
        int reserveUnknown = 0;
        while (!left.isEmpty()) {
            int best = -1;
            double bestScore = -1;
            for (int i : left) {
                double s = score(in.get(i), p, asnCount, subnetCount);
                if (s > bestScore) { // strict: the earlier index wins ties
                    best = i;
                    bestScore = s;
                }
            }
            boolean full = active.size() == p.poolSize() && reserve.size() == p.reserveSize();
            if (bestScore < p.minScore() || full) {
                for (int i : left) {
                    double s = score(in.get(i), p, asnCount, subnetCount);
                    dropped.add(new RankResult.Dropped(
                            in.get(i),
                            s < p.minScore() ? RankResult.Reason.BELOW_MIN_SCORE : RankResult.Reason.RESERVE_FULL,
                            s));
                }
                break;
            }
            left.remove(Integer.valueOf(best));
            RankCandidate c = in.get(best);
            boolean unknown = c.exitNetwork().asn() == 0;
            RankResult.Ranked r =
                    new RankResult.Ranked(c, active.size() + reserve.size() + 1, c.baseScore(), bestScore);
            if (active.size() < p.poolSize() && (!unknown || activeUnknown < p.maxUnknownActive())) {
                active.add(r);
                activeUnknown += unknown ? 1 : 0;
            } else if (reserve.size() < p.reserveSize() && (!unknown || reserveUnknown < p.maxUnknownReserve())) {
                reserve.add(r);
                reserveUnknown += unknown ? 1 : 0;
            } else {
                dropped.add(new RankResult.Dropped(
                        c, unknown ? RankResult.Reason.UNKNOWN_ASN_SHARE : RankResult.Reason.RESERVE_FULL, bestScore));
                continue;
            }
            if (!unknown) {
                asnCount.merge(c.exitNetwork().asn(), 1, Integer::sum);
            }
            long subnet = Subnets.of(c.exitNetwork().exitIp());
            if (subnet != Subnets.NONE) {
                subnetCount.merge(subnet, 1, Integer::sum);
            }
        }
        return new RankResult(active, reserve, dropped);
    }

    private static double score(
            RankCandidate c, RankPolicy p, Map<Long, Integer> asnCount, Map<Long, Integer> subnetCount) {
        boolean unknown = c.exitNetwork().asn() == 0;
        double w = unknown ? c.baseScore() * p.unknownAsnPenalty() : c.baseScore();
        int same = unknown ? 0 : asnCount.getOrDefault(c.exitNetwork().asn(), 0);
        long subnet = Subnets.of(c.exitNetwork().exitIp());
        if (subnet != Subnets.NONE) {
            same += subnetCount.getOrDefault(subnet, 0);
        }
        return w / (1 + same);
    }
}
