package dev.proxypool.core.rank;

import java.util.List;

/**
 * What one ranking produced: the active pool and the reserve, each best first, and every dropped
 * candidate with its reason. Every input candidate appears in exactly one of the three lists.
 *
 * @param active  the active pool, best first, at most {@code poolSize}
 * @param reserve the reserve, best first, at most {@code reserveSize}
 * @param dropped the candidates in neither pool, in the order they were dropped
 */
public record RankResult(List<Ranked> active, List<Ranked> reserve, List<Dropped> dropped) {

    /** Copies the three lists (unmodifiable). */
    public RankResult {
        active = List.copyOf(active);
        reserve = List.copyOf(reserve);
        dropped = List.copyOf(dropped);
    }

    /**
     * A chosen candidate.
     *
     * @param candidate the input
     * @param position  1-based order of choice across active and reserve
     * @param baseScore score before penalties
     * @param score     adjusted score when chosen (after the diversity and unknown-ASN penalties)
     */
    public record Ranked(RankCandidate candidate, int position, double baseScore, double score) {}

    /**
     * A candidate left out, with its adjusted score when it was dropped.
     *
     * @param candidate the input
     * @param reason    why it is in neither pool
     * @param score     its adjusted score when it was dropped
     */
    public record Dropped(RankCandidate candidate, Reason reason, double score) {}

    /** Why a candidate is in neither pool. */
    public enum Reason {
        /** Its adjusted score fell below {@code minScore}. */
        BELOW_MIN_SCORE("below_min_score"),
        /** Unknown exit ASN, and the unknown-ASN share of both pools was used up. */
        UNKNOWN_ASN_SHARE("unknown_asn_share"),
        /** Good enough, but the active pool and the reserve were full. */
        RESERVE_FULL("reserve_full");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        /**
         * Metric label.
         *
         * @return the lower-case label, such as {@code below_min_score}
         */
        public String label() {
            return label;
        }
    }

    /**
     * How many candidates were dropped for one reason (metrics).
     *
     * @param reason the reason
     * @return the count
     */
    public long droppedCount(Reason reason) {
        long n = 0;
        for (Dropped d : dropped) {
            if (d.reason() == reason) {
                n++;
            }
        }
        return n;
    }
}
