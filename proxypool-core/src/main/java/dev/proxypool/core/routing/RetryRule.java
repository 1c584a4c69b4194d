package dev.proxypool.core.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one place that decides whether a gateway request may be tried again, and on which proxy:
 * <ul>
 *   <li>only GET and HEAD without a request body are ever retried ({@link #retryable});</li>
 *   <li>only before any response byte reached the client (the wire layer knows that and asks
 *       only then);</li>
 *   <li>never more than {@link #MAX_ATTEMPTS} attempts in all, whatever the routing says
 *       ({@link #attemptsAllowed});</li>
 *   <li>within a routing: at most {@code retry.maxAttempts} attempts, and retries add at most
 *       {@code retry.budgetPercent} of the routing's requests ({@link #admit}, backed by a
 *       {@link RetryBudget});</li>
 *   <li>always on another proxy: each retry excludes every proxy already tried
 *       ({@link #excluding}).</li>
 * </ul>
 * One instance per routing; thread-safe (the budget is lock-free).
 */
public final class RetryRule {

    /** Attempts per request at most, first included: {@code retry.maxAttempts}' upper bound. */
    public static final int MAX_ATTEMPTS = 10;

    private final RetryPolicy policy;
    private final RetryBudget budget;

    public RetryRule(RetryPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.budget = new RetryBudget(policy.budgetPercent());
    }

    public RetryPolicy policy() {
        return policy;
    }

    /** True when a request may be tried more than once at all: GET or HEAD without a body. */
    public static boolean retryable(String method, boolean hasBody) {
        return !hasBody && (method.equals("GET") || method.equals("HEAD"));
    }

    /**
     * Attempts the wire layer may make for one request: {@code ceiling} for a {@link #retryable}
     * request, else 1. Each routing's {@link #admit} decides below that ceiling.
     *
     * @throws IllegalArgumentException when {@code ceiling} is outside 1..{@value #MAX_ATTEMPTS}
     */
    public static int attemptsAllowed(String method, boolean hasBody, int ceiling) {
        if (ceiling < 1 || ceiling > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("the attempt ceiling must be between 1 and " + MAX_ATTEMPTS
                    + ", got " + ceiling);
        }
        return retryable(method, hasBody) ? ceiling : 1;
    }

    /**
     * Whether attempt number {@code attempt} (1 = the first) may go ahead on this routing. A first
     * attempt always may, and earns retry budget; a retry needs {@code attempt <= maxAttempts}
     * and a budget token.
     */
    public boolean admit(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be 1 or more, got " + attempt);
        }
        if (attempt == 1) {
            budget.onRequest();
            return true;
        }
        return attempt <= policy.maxAttempts() && budget.tryRetry();
    }

    /** The proxies the next attempt must avoid: those already tried plus the one that just failed. */
    public static List<String> excluding(List<String> tried, String failedProxyId) {
        List<String> next = new ArrayList<>(tried.size() + 1);
        next.addAll(tried);
        next.add(Objects.requireNonNull(failedProxyId, "failedProxyId"));
        return List.copyOf(next);
    }
}
