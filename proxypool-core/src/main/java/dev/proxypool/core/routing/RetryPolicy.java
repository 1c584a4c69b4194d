package dev.proxypool.core.routing;

/**
 * Retries of a routing ({@code routings[].retry}): only GET/HEAD, only before any response byte
 * reached the client, always on a different proxy, and at most {@code budgetPercent} extra load.
 *
 * @param maxAttempts   total attempts including the first (2 by default; 1 = no retry)
 * @param budgetPercent retries may add at most this share of requests (20)
 */
public record RetryPolicy(int maxAttempts, int budgetPercent) {

    /** Two attempts, retries at most 20% extra load. */
    public static final RetryPolicy DEFAULTS = new RetryPolicy(2, 20);
    /** One attempt: never retry. */
    public static final RetryPolicy NONE = new RetryPolicy(1, 0);

    /**
     * Validates both bounds.
     *
     * @throws IllegalArgumentException naming the config key out of range
     */
    public RetryPolicy {
        if (maxAttempts < 1 || maxAttempts > RetryRule.MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "retry.maxAttempts must be between 1 and " + RetryRule.MAX_ATTEMPTS + ", got " + maxAttempts);
        }
        if (budgetPercent < 0 || budgetPercent > 100) {
            throw new IllegalArgumentException("retry.budgetPercent must be between 0 and 100, got " + budgetPercent);
        }
    }
}
