package dev.proxypool.core.rank;

/**
 * How the ranker builds a pool (docs/design.md#collection-pipeline P10; {@code pipeline:} keys, or one pool profile).
 * Defaults written once here: {@link #DEFAULTS}.
 *
 * @param minScore           quality threshold: a candidate whose adjusted score is below it is
 *                           dropped, so pools may stay smaller than their sizes (18)
 * @param poolSize           upper bound of the active pool, never a quota to fill (150)
 * @param reserveSize        upper bound of the sorted reserve behind it (700)
 * @param unknownAsnPenalty  factor in (0, 1] applied to the score of a candidate whose exit ASN
 *                           is unknown: 0.5 halves it, 1 means no penalty (0.5)
 * @param unknownAsnMaxShare at most {@code floor(share × poolSize)} unknown-ASN entries go to the
 *                           active pool and {@code floor(share × reserveSize)} to the reserve; in
 *                           [0, 1] (0.2)
 */
public record RankPolicy(
        double minScore, int poolSize, int reserveSize, double unknownAsnPenalty, double unknownAsnMaxShare) {

    /** The largest pool or reserve size accepted. */
    public static final int MAX_SIZE = 1_000_000;

    /** The defaults given on the components: 18, 150, 700, 0.5, 0.2. */
    public static final RankPolicy DEFAULTS = new RankPolicy(18, 150, 700, 0.5, 0.2);

    /**
     * Validates every figure.
     *
     * @throws IllegalArgumentException naming the first figure out of its range
     */
    public RankPolicy {
        if (!Double.isFinite(minScore) || minScore < 0) {
            throw new IllegalArgumentException("minScore must be a finite number >= 0, got " + minScore);
        }
        if (poolSize < 1 || poolSize > MAX_SIZE) {
            throw new IllegalArgumentException("poolSize must be between 1 and " + MAX_SIZE + ", got " + poolSize);
        }
        if (reserveSize < 0 || reserveSize > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "reserveSize must be between 0 and " + MAX_SIZE + ", got " + reserveSize);
        }
        if (!(unknownAsnPenalty > 0 && unknownAsnPenalty <= 1)) {
            throw new IllegalArgumentException("unknownAsnPenalty must be in (0, 1], got " + unknownAsnPenalty);
        }
        if (!(unknownAsnMaxShare >= 0 && unknownAsnMaxShare <= 1)) {
            throw new IllegalArgumentException("unknownAsnMaxShare must be in [0, 1], got " + unknownAsnMaxShare);
        }
    }

    /**
     * This policy with another quality threshold.
     *
     * @param v the new {@code minScore}, finite and {@code >= 0}
     * @return a new policy
     * @throws IllegalArgumentException if the value is out of range
     */
    public RankPolicy withMinScore(double v) {
        return new RankPolicy(v, poolSize, reserveSize, unknownAsnPenalty, unknownAsnMaxShare);
    }

    /**
     * This policy with other pool sizes.
     *
     * @param pool    the new {@code poolSize}, 1..{@value #MAX_SIZE}
     * @param reserve the new {@code reserveSize}, 0..{@value #MAX_SIZE}
     * @return a new policy
     * @throws IllegalArgumentException if a size is out of range
     */
    public RankPolicy withSizes(int pool, int reserve) {
        return new RankPolicy(minScore, pool, reserve, unknownAsnPenalty, unknownAsnMaxShare);
    }

    /**
     * This policy with other unknown-ASN rules.
     *
     * @param penalty  the new {@code unknownAsnPenalty}, in (0, 1]
     * @param maxShare the new {@code unknownAsnMaxShare}, in [0, 1]
     * @return a new policy
     * @throws IllegalArgumentException if a value is out of range
     */
    public RankPolicy withUnknownAsn(double penalty, double maxShare) {
        return new RankPolicy(minScore, poolSize, reserveSize, penalty, maxShare);
    }

    int maxUnknownActive() {
        return (int) Math.floor(unknownAsnMaxShare * poolSize);
    }

    int maxUnknownReserve() {
        return (int) Math.floor(unknownAsnMaxShare * reserveSize);
    }
}
