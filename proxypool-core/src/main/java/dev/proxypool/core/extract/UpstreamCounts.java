package dev.proxypool.core.extract;

/**
 * How many proxies of one upstream a store holds, by state (for metrics: pool size by upstream and state).
 * Counts are as stored: an expired proxy counts until {@link PoolStore#purgeExpired} drops it.
 */
public record UpstreamCounts(int available, int disabled) {

    public UpstreamCounts {
        if (available < 0 || disabled < 0) {
            throw new IllegalArgumentException("counts must not be negative, got " + available + "/" + disabled);
        }
    }

    public int total() {
        return available + disabled;
    }
}
