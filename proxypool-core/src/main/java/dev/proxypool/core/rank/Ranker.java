package dev.proxypool.core.rank;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranks validated candidates into an active pool and a reserve (docs/design.md#collection-pipeline, P10).
 *
 * <p><b>Score.</b> {@code base = 1000 / (1 + latency_ms) + 2 × min(success_streak, 10)}; a
 * candidate with an unknown exit ASN has its base multiplied by {@code unknownAsnPenalty}. Greedy
 * diversity pass: repeatedly choose the candidate with the highest
 * {@code adjusted = base / (1 + chosen with the same ASN + chosen in the same /24 or /48)} (unknown
 * ASNs form no ASN group; an unknown exit address no subnet group). Ties go to the earlier input.
 * A candidate whose adjusted score is below {@code minScore} is dropped: scores only fall as more
 * are chosen, so it could never come back. The first {@code poolSize} chosen go to the active
 * pool, the next {@code reserveSize} to the reserve; unknown-ASN entries beyond their share of
 * the active pool go to the reserve, beyond their share of the reserve are dropped. Every chosen
 * entry, active or reserve, counts for the diversity of later choices.
 *
 * <p><b>Algorithm</b> ({@code GreedyPass}): lazy greedy over three levels of primitive max-heaps:
 * candidates of one (ASN, subnet) cell, cells of one ASN bucketed by subnet pick count, and the
 * ASNs' current best. Within a cell, and within a bucket, the divisor is shared, so those heaps
 * stay exactly ordered; a pick re-keys only its own ASN and moves one cell. Cost
 * O(n log n + k b log n) time and O(n) memory, for n candidates, k chosen and b non-empty buckets
 * of an ASN (a handful in practice); the pass stops once both pools are full. 100,000 candidates
 * rank in a fraction of a second, also when they crowd one ASN or one /24 (see
 * {@code RankerScaleTest}).
 *
 * <p>Immutable and thread-safe: every call works on its own arrays.
 */
public final class Ranker {

    private final RankPolicy policy;

    /**
     * A ranker applying one policy.
     *
     * @param policy sizes, threshold and unknown-ASN rules; not null
     * @throws IllegalArgumentException if the policy is null
     */
    public Ranker(RankPolicy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("rank policy is missing");
        }
        this.policy = policy;
    }

    /**
     * The policy every {@link #rank} call applies.
     *
     * @return the policy given at construction
     */
    public RankPolicy policy() {
        return policy;
    }

    /**
     * Ranks the same candidates under each profile, independently.
     *
     * @return results by profile name, in profile order
     * @throws IllegalArgumentException when two profiles share a name
     * @param candidates the validated candidates, shared by every profile; not modified
     * @param profiles   the profiles, each with its own policy
     */
    public static Map<String, RankResult> rankProfiles(List<RankCandidate> candidates, List<PoolProfile> profiles) {
        LinkedHashMap<String, RankResult> out = new LinkedHashMap<>();
        for (PoolProfile p : profiles) {
            if (out.containsKey(p.name())) {
                throw new IllegalArgumentException("pool profile name '" + p.name() + "' is used twice");
            }
            out.put(p.name(), null);
        }
        for (PoolProfile p : profiles) {
            out.put(p.name(), new Ranker(p.policy()).rank(candidates));
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * Ranks candidates into an active pool and a reserve, as the class comment describes.
     *
     * @param candidates the validated candidates, in input order (ties go to the earlier); not modified
     * @return the active pool, the reserve and the dropped candidates; every input in exactly one
     * @throws IllegalArgumentException when two candidates carry the same proxy id
     */
    public RankResult rank(List<RankCandidate> candidates) {
        int n = candidates.size();
        RankCandidate[] c = candidates.toArray(RankCandidate[]::new);
        double[] base = new double[n];
        double[] weighted = new double[n];
        int[] asnGroup = new int[n];
        int[] subnetGroup = new int[n];
        Map<String, Integer> ids = HashMap.newHashMap(n);
        Map<Long, Integer> asns = new HashMap<>();
        Map<Long, Integer> subnets = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Integer earlier = ids.putIfAbsent(c[i].proxyId(), i);
            if (earlier != null) {
                throw new IllegalArgumentException(
                        "candidates[" + i + "]: proxy id '" + c[i].proxyId() + "' is also candidates[" + earlier + "]");
            }
            long asn = c[i].exitNetwork().asn();
            base[i] = c[i].baseScore();
            weighted[i] = asn == 0 ? base[i] * policy.unknownAsnPenalty() : base[i];
            asnGroup[i] = asn == 0 ? -1 : group(asns, asn);
            long subnet = Subnets.of(c[i].exitNetwork().exitIp());
            subnetGroup[i] = subnet == Subnets.NONE ? -1 : group(subnets, subnet);
        }
        return new GreedyPass(policy, c, base, weighted, asnGroup, subnetGroup, asns.size(), subnets.size()).run();
    }

    private static int group(Map<Long, Integer> groups, long key) {
        Integer g = groups.get(key);
        if (g == null) {
            g = groups.size();
            groups.put(key, g);
        }
        return g;
    }
}
