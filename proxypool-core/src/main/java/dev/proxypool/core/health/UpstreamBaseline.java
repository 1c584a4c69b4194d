package dev.proxypool.core.health;

import java.util.concurrent.atomic.LongAdder;

/**
 * The reference the dynamic weights of one upstream's proxies are judged against
 * (docs/design.md#slow-start, H12): the sums of its healthy members' smoothed latency and success,
 * so a proxy can compare itself with the mean of its peers. One per upstream, shared by every
 * {@link ProxyHealth} of that upstream on this worker.
 *
 * <p>Maintained by differences: a member adds the change of its own EWMA each time it updates
 * (one {@link LongAdder#add} per metric), joins on its first sample, withdraws its numbers when it
 * leaves {@code HEALTHY} and for good when the proxy leaves the pool. Integer units (nanoseconds,
 * parts per million) keep the sums exact however long they run. Reads are a handful of adder sums;
 * nothing iterates the members, nothing allocates after the adders' first contention.
 *
 * <p>Thread-safe. A reader may see a sum and a count from slightly different moments; the weight
 * it feeds moves at most 10% per step, so such a glimpse cannot swing a weight.
 */
public final class UpstreamBaseline {

    /** Success is summed in parts per million. */
    static final long SUCCESS_SCALE = 1_000_000L;

    private final String upstream;
    private final LongAdder latencySum = new LongAdder();
    private final LongAdder latencyMembers = new LongAdder();
    private final LongAdder successSum = new LongAdder();
    private final LongAdder successMembers = new LongAdder();

    /**
     * An empty baseline.
     *
     * @param upstream the upstream's name, for display; not null
     */
    public UpstreamBaseline(String upstream) {
        if (upstream == null) {
            throw new IllegalArgumentException("upstream must not be null");
        }
        this.upstream = upstream;
    }

    /**
     * A baseline of its own for a proxy that belongs to no shared one: with no peers, latency is not
     * judged and success is judged against the ideal.
     *
     * @return a new, empty baseline
     */
    public static UpstreamBaseline standalone() {
        return new UpstreamBaseline("");
    }

    /**
     * The upstream this baseline belongs to.
     *
     * @return the name given at construction
     */
    public String upstream() {
        return upstream;
    }

    /**
     * How many healthy members have a latency sample.
     *
     * @return the count now (may be off by one for a moment while a member joins or leaves)
     */
    public long latencyMembers() {
        return latencyMembers.sum();
    }

    /**
     * Mean smoothed success latency over the healthy members that have one.
     *
     * @return nanoseconds, 0 while no member has a sample
     */
    public long meanLatencyNanos() {
        long n = latencyMembers.sum();
        long sum = latencySum.sum();
        return n <= 0 || sum <= 0 ? 0 : sum / n;
    }

    /**
     * Mean smoothed success over the healthy members.
     *
     * @return in [0, 1]; 1 while there are no members
     */
    public double meanSuccess() {
        long n = successMembers.sum();
        long sum = successSum.sum();
        return n <= 0 ? 1.0 : Math.clamp((double) sum / n / SUCCESS_SCALE, 0.0, 1.0);
    }

    /**
     * Mean latency of the other members with a sample, given this member's own contribution
     * ({@code -1} when it has none).
     */
    long peerLatencyNanos(long own) {
        long mean = peerMean(latencySum, latencyMembers, own);
        return mean <= 0 ? 0 : mean;
    }

    /** Mean success of the other members in parts per million, or -1 when there are none. */
    long peerSuccessPpm(long own) {
        long mean = peerMean(successSum, successMembers, own);
        return mean == -1 ? -1 : Math.clamp(mean, 0, SUCCESS_SCALE);
    }

    /** The mean of the members other than the one contributing {@code own} (-1: none), or -1 without any. */
    private static long peerMean(LongAdder sums, LongAdder members, long own) {
        long n = members.sum();
        long sum = sums.sum();
        if (own >= 0) {
            n--;
            sum -= own;
        }
        return n <= 0 ? -1 : sum / n;
    }

    void addLatency(long delta, int members) {
        if (delta != 0) {
            latencySum.add(delta);
        }
        if (members != 0) {
            latencyMembers.add(members);
        }
    }

    void addSuccess(long delta, int members) {
        if (delta != 0) {
            successSum.add(delta);
        }
        if (members != 0) {
            successMembers.add(members);
        }
    }

    @Override
    public String toString() {
        return "UpstreamBaseline[" + upstream + " latency=" + meanLatencyNanos() + "ns/" + latencyMembers()
                + " success=" + meanSuccess() + "]";
    }
}
