package dev.proxypool.core.health;

/**
 * What a {@link FailureKind} does to a proxy's health (docs/design.md#failure-classification F1–F2: "credential rejection disables;
 * a timeout cools"). The classification lives in one exhaustive switch so that a new failure kind
 * does not compile until someone decides its effect.
 */
public enum FailureEffect {
    /** A lasting condition: the proxy is DISABLED at once, from any state, until an operator enables it. */
    DISABLES,
    /** Counts toward both passive rules (consecutive failures and the window's error rate), and toward failed active probes. */
    COOLS,
    /**
     * The proxy worked and the destination failed (it did not resolve, refused, timed out, or the
     * proxy's policy refused it): a signal about that destination, not about the proxy. It neither
     * extends nor resets the consecutive-failure streak, is not counted in the error-rate window and
     * lowers no weight, so a dead site asked for again and again never cools a working proxy. Only
     * {@code health.passive.distinctTargetFailures} <em>different</em> destinations failing in a row,
     * with no success between, blame the proxy (then it is its own network that is broken). As a
     * recovery probe's outcome it is a failed probe (the proxy has not shown it carries traffic);
     * in active checks it counts as a failed check, as every other kind does.
     */
    TARGET_SIDE;

    /**
     * The effect of {@code kind}.
     *
     * @param kind a classified failure; not null
     * @return its effect, never null
     */
    public static FailureEffect of(FailureKind kind) {
        return switch (kind) {
            case PROXY_AUTH_REJECTED -> DISABLES;
            case CONNECTION_REFUSED, CONNECT_TIMEOUT, TLS_FAILURE, PROTOCOL_ERROR, SLOW_BODY, CONNECTION_RESET -> COOLS;
            case UPSTREAM_UNREACHABLE -> TARGET_SIDE;
        };
    }
}
