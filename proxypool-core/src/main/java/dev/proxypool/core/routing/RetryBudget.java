package dev.proxypool.core.routing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A routing's retry budget ({@code retry.budgetPercent}): retries may add at most that share of
 * the routing's requests, so a failing upstream cannot multiply the load on the rest (Envoy's
 * retry budget idea). Each request earns {@code percent/100} of a token, each retry spends one;
 * the bucket starts full and holds at most {@value #CAP} tokens, so a quiet routing can still
 * retry its occasional failure. Lock-free; tokens kept in thousandths.
 */
public final class RetryBudget {

    /** Tokens the bucket starts with and holds at most. */
    public static final int CAP = 10;

    private static final long ONE = 1_000;

    private final long earnPerRequest;
    private final AtomicLong milliTokens = new AtomicLong(CAP * ONE);

    /**
     * A full bucket.
     *
     * @param budgetPercent {@code retry.budgetPercent}, 0..100 (validated by {@link RetryPolicy}); 0 refuses
     *                      every retry
     */
    public RetryBudget(int budgetPercent) {
        this.earnPerRequest = budgetPercent * ONE / 100;
    }

    /** A first attempt: earns {@code budgetPercent/100} of a token. */
    public void onRequest() {
        if (earnPerRequest == 0) {
            return;
        }
        long cur;
        do {
            cur = milliTokens.get();
            if (cur >= CAP * ONE) {
                return;
            }
        } while (!milliTokens.compareAndSet(cur, Math.min(CAP * ONE, cur + earnPerRequest)));
    }

    /**
     * A retry: spends one token; false when none is left.
     *
     * @return true if a token was spent and the retry may go ahead
     */
    public boolean tryRetry() {
        if (earnPerRequest == 0) {
            return false;
        }
        long cur;
        do {
            cur = milliTokens.get();
            if (cur < ONE) {
                return false;
            }
        } while (!milliTokens.compareAndSet(cur, cur - ONE));
        return true;
    }
}
