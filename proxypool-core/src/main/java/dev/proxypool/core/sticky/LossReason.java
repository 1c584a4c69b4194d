package dev.proxypool.core.sticky;

import dev.proxypool.core.dispatch.NoCandidate;
import java.util.Locale;

/** Why a sticky binding was dropped. */
public enum LossReason {
    /** The binding reached its lifetime ({@code sticky.lifetime}). */
    LIFETIME_ENDED,
    /** The binding's lifetime was capped by its proxy's expiry, and that moment has passed. */
    PROXY_EXPIRED,
    /** Unused for longer than {@code sticky.idle}. */
    IDLE,
    /** The proxy is not in the current snapshot any more. */
    PROXY_GONE,
    /** The proxy no longer passes the routing's filter (upstreams, protocols, labels). */
    FILTERED_OUT,
    /** Less remaining TTL than the routing's minimum. */
    PROXY_EXPIRING,
    /** Cooling, disabled, recovering, or health admission denied. */
    UNHEALTHY,
    /** Banned for the request's destination domain. */
    BANNED,
    /** Health verdict older than the routing's maximum health age. */
    STALE_HEALTH,
    /** The request excludes the proxy (a retry after it failed). */
    EXCLUDED,
    /**
     * The session's own requests on the proxy kept failing: {@code sticky.switchFailures} in a row,
     * or {@code sticky.switchErrorRate} of its recent ones (docs/design.md#sticky-sessions, S8).
     */
    SESSION_FAILURES;

    /**
     * The name used as a metrics label and in logs.
     *
     * @return the lower-case constant name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The loss a failed reservation of the bound proxy stands for. BUSY is not a loss (see {@link StickyDispatch}). */
    static LossReason of(NoCandidate.Reason reason) {
        return switch (reason) {
            case NO_MATCH -> FILTERED_OUT;
            case UNHEALTHY -> UNHEALTHY;
            case BUSY -> throw new IllegalArgumentException("a busy proxy is not a lost session");
            case BANNED -> BANNED;
            case STALE_HEALTH -> STALE_HEALTH;
            case EXPIRING -> PROXY_EXPIRING;
            case EXCLUDED -> EXCLUDED;
        };
    }
}
