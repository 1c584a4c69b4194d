package dev.proxypool.core.dispatch;

import java.util.Locale;

/**
 * No proxy could be reserved, and why. The instances are shared constants: a failed pick allocates
 * nothing.
 *
 * @param reason the dominant reason (see {@link Reason} for the order)
 */
public record NoCandidate(Reason reason) implements PickResult {

    /**
     * Why a pick found nothing. When candidates failed for different reasons, the reported one is
     * the first in this order among them (the most transient, i.e. the most worth waiting for):
     * BUSY, UNHEALTHY, BANNED, STALE_HEALTH, EXPIRING, EXCLUDED. {@link #NO_MATCH} means no proxy
     * of the snapshot passes the filter's upstreams, protocols and labels at all.
     */
    public enum Reason {
        /** No proxy matches the filter (upstreams, protocols, labels). */
        NO_MATCH,
        /** Every usable proxy is at its concurrency limit. */
        BUSY,
        /** Cooling, disabled, or the probe permit is taken. */
        UNHEALTHY,
        /** Banned for the request's destination domain. */
        BANNED,
        /** The last successful check is older than the filter's maximum health age. */
        STALE_HEALTH,
        /** Expired, or less remaining TTL than the filter's minimum. */
        EXPIRING,
        /** Excluded by the request (already tried in this request's earlier attempts). */
        EXCLUDED;

        /**
         * The wire form, e.g. {@code no_match}.
         *
         * @return the lower-case name
         */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final NoCandidate[] BY_REASON = new NoCandidate[Reason.values().length];

    static {
        for (Reason r : Reason.values()) {
            BY_REASON[r.ordinal()] = new NoCandidate(r);
        }
    }

    /**
     * Prefer {@link #of}, which returns the shared instance.
     *
     * @throws IllegalArgumentException when {@code reason} is null
     */
    public NoCandidate {
        if (reason == null) {
            throw new IllegalArgumentException("no-candidate reason is missing");
        }
    }

    /**
     * The shared instance for {@code reason}: no allocation.
     *
     * @param reason why the pick found nothing
     * @return the constant of that reason
     */
    public static NoCandidate of(Reason reason) {
        return BY_REASON[reason.ordinal()];
    }

    /**
     * Whether some candidates match the filter but none was usable now (busy, cooling, ...).
     * {@code onNoCandidate: wait} waits either way: a publish can bring a match too.
     *
     * @return true unless the reason is {@link Reason#NO_MATCH}
     */
    public boolean candidatesExist() {
        return reason != Reason.NO_MATCH;
    }
}
