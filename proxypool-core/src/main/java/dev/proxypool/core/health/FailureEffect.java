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
     * Counts toward the window's error rate (and failed active probes), but neither extends nor resets
     * the consecutive-failure streak: the fault may be the destination's (a dead site answered through a
     * working proxy), and a streak of them at one dead site must not cool the whole pool.
     */
    RATE_ONLY;

    /** The effect of {@code kind}. */
    public static FailureEffect of(FailureKind kind) {
        return switch (kind) {
            case PROXY_AUTH_REJECTED -> DISABLES;
            case CONNECTION_REFUSED, CONNECT_TIMEOUT, TLS_FAILURE, PROTOCOL_ERROR, SLOW_BODY, CONNECTION_RESET -> COOLS;
            case UPSTREAM_UNREACHABLE -> RATE_ONLY;
        };
    }
}
