package dev.proxypool.core.routing;

import dev.proxypool.core.health.FailureKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The one place that decides whether a gateway request may be tried again, and on which proxy:
 * <ul>
 *   <li>only requests of an idempotent method (RFC 9110 §9.2.2) without a request body are ever
 *       retried ({@link #retryable});</li>
 *   <li>only before any response byte reached the client (the wire layer knows that and asks
 *       only then);</li>
 *   <li>never more than {@link #MAX_ATTEMPTS} attempts in all, whatever the routing says
 *       ({@link #attemptsAllowed});</li>
 *   <li>within a routing: at most {@code retry.maxAttempts} attempts, and retries add at most
 *       {@code retry.budgetPercent} of the routing's requests ({@link #admit}, backed by a
 *       {@link RetryBudget});</li>
 *   <li>always on another proxy: each retry excludes every proxy already tried
 *       ({@link #excluding});</li>
 *   <li>a tunnel (HTTP {@code CONNECT} or SOCKS5) whatever its method: it is retried when it could
 *       not be opened and the proxy is to blame, before the client was told it is open
 *       ({@link #retriesTunnel}).</li>
 * </ul>
 * One instance per routing; thread-safe (the budget is lock-free).
 */
public final class RetryRule {

    /** Attempts per request at most, first included: {@code retry.maxAttempts}' upper bound. */
    public static final int MAX_ATTEMPTS = 10;

    /** RFC 9110 §9.2.2: the methods whose repetition has the effect of one request. */
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

    private final RetryPolicy policy;
    private final RetryBudget budget;

    /**
     * The rule of one routing, with a full retry budget.
     *
     * @param policy the routing's {@code retry} block; not null
     */
    public RetryRule(RetryPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.budget = new RetryBudget(policy.budgetPercent());
    }

    /**
     * The routing's retry settings.
     *
     * @return the policy given at construction
     */
    public RetryPolicy policy() {
        return policy;
    }

    /**
     * True when a request may be tried more than once at all: an idempotent method (RFC 9110 §9.2.2:
     * GET, HEAD, OPTIONS, TRACE, PUT, DELETE) without a body.
     *
     * @param method  the request method, upper case as the wire layer parsed it
     * @param hasBody whether the request carries a body (a body cannot be replayed)
     * @return true for a body-less request of an idempotent method
     */
    public static boolean retryable(String method, boolean hasBody) {
        return !hasBody && IDEMPOTENT.contains(method);
    }

    /**
     * Attempts the wire layer may make for one request: {@code ceiling} for a {@link #retryable}
     * request, else 1. Each routing's {@link #admit} decides below that ceiling.
     *
     * @throws IllegalArgumentException when {@code ceiling} is outside 1..{@value #MAX_ATTEMPTS}
     * @param method  the request method, upper case
     * @param hasBody whether the request carries a body
     * @param ceiling the server-wide attempt ceiling, 1..{@value #MAX_ATTEMPTS}
     * @return the number of attempts, 1 or {@code ceiling}
     */
    public static int attemptsAllowed(String method, boolean hasBody, int ceiling) {
        if (ceiling < 1 || ceiling > MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "the attempt ceiling must be between 1 and " + MAX_ATTEMPTS + ", got " + ceiling);
        }
        return retryable(method, hasBody) ? ceiling : 1;
    }

    /**
     * Whether attempt number {@code attempt} (1 = the first) may go ahead on this routing. A first
     * attempt always may, and earns retry budget; a retry needs {@code attempt <= maxAttempts}
     * and a budget token.
     *
     * @param attempt the attempt's number, 1 for the first
     * @return true if the attempt may be made
     * @throws IllegalArgumentException if {@code attempt} is below 1
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

    /**
     * The proxies the next attempt must avoid: those already tried plus the one that just failed.
     *
     * @param tried         ids of proxies tried before; not null
     * @param failedProxyId the id of the proxy that just failed; not null
     * @return an unmodifiable list: {@code tried} followed by {@code failedProxyId}
     */
    public static List<String> excluding(List<String> tried, String failedProxyId) {
        List<String> next = new ArrayList<>(tried.size() + 1);
        next.addAll(tried);
        next.add(Objects.requireNonNull(failedProxyId, "failedProxyId"));
        return List.copyOf(next);
    }

    /**
     * Whether a tunnel that could not be opened may be tried on another proxy: the tunnel carried no
     * byte yet (the client has not been told it is open), so a retry is invisible whatever the
     * client will send. Only when the proxy is to blame (refused, timed out, reset, garbage, a
     * non-2xx answer the failure classification puts on the proxy): a target-side answer
     * ({@link FailureKind#UPSTREAM_UNREACHABLE}) says the destination is the problem, and another
     * proxy would spend retry budget on it.
     *
     * @param kind    how the attempt failed; not null
     * @param attempt the failed attempt's number, 1 for the first
     * @param ceiling the server-wide attempt ceiling (the gateway's {@code GatewayConfig.maxAttempts}, not a configuration key)
     * @return true if one more attempt may be asked for (the routing's {@link #admit} still decides)
     */
    public static boolean retriesTunnel(FailureKind kind, int attempt, int ceiling) {
        return attempt < ceiling && Objects.requireNonNull(kind, "kind") != FailureKind.UPSTREAM_UNREACHABLE;
    }
}
