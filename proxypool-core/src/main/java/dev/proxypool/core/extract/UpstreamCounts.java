package dev.proxypool.core.extract;

/**
 * How many proxies of one upstream a store holds, by state (for metrics: pool size by upstream and state).
 * Counts are as stored: an expired proxy counts until {@link PoolStore#purgeExpired} drops it.
 *
 * @param available proxies in {@link ProxyState#AVAILABLE}, at least 0
 * @param disabled  proxies in {@link ProxyState#DISABLED}, at least 0
 */
public record UpstreamCounts(int available, int disabled) {

    /**
     * Checks the counts.
     *
     * @throws IllegalArgumentException if a count is negative
     */
    public UpstreamCounts {
        if (available < 0 || disabled < 0) {
            throw new IllegalArgumentException("counts must not be negative, got " + available + "/" + disabled);
        }
    }

    /**
     * Every stored proxy of the upstream.
     *
     * @return {@code available + disabled}
     */
    public int total() {
        return available + disabled;
    }
}
