package dev.proxypool.core.health;

/**
 * One immutable health state of a proxy and the transition that produced it. {@link ProxyHealth}
 * keeps exactly one current status behind an atomic reference and replaces it by compare-and-set,
 * so a reader always sees a consistent combination of state, deadline and permit.
 *
 * @param sequence           transition number, 0 for the initial status, +1 per transition
 * @param state              the state entered
 * @param reason             why it was entered
 * @param stage              who observed it
 * @param sinceNanos         ticker reading when it was entered
 * @param cooldownUntilNanos end of the cooldown (COOLING, PROBE_ALLOWED); 0 otherwise
 * @param backoffNanos       length of the current cooldown, the base of the next doubling; 0 when none
 *                           (kept through DISABLED and a recovery check, so a proxy failing again
 *                           resumes its doubling instead of starting over)
 * @param probeHolder        who holds the probe permit (PROBE_ALLOWED); {@link ProbeHolder#NONE} otherwise
 * @param probeDeadlineNanos when an unanswered probe counts as failed (PROBE_ALLOWED); 0 otherwise
 * @param slowStart          true when this HEALTHY status is a return to service whose weight ramps up from {@code sinceNanos}
 */
public record HealthStatus(
        long sequence,
        HealthState state,
        HealthReason reason,
        HealthStage stage,
        long sinceNanos,
        long cooldownUntilNanos,
        long backoffNanos,
        ProbeHolder probeHolder,
        long probeDeadlineNanos,
        boolean slowStart) {

    /**
     * Checks the parts fit together.
     *
     * @throws IllegalArgumentException if a part is null or the probe holder does not fit the state
     */
    public HealthStatus {
        if (state == null || reason == null || stage == null || probeHolder == null) {
            throw new IllegalArgumentException("health status needs state, reason, stage and probeHolder, got " + state
                    + "/" + reason + "/" + stage + "/" + probeHolder);
        }
        if ((state == HealthState.PROBE_ALLOWED) != (probeHolder != ProbeHolder.NONE)) {
            throw new IllegalArgumentException("probeHolder " + probeHolder + " does not fit state " + state);
        }
    }

    static HealthStatus initial(long nowNanos) {
        return new HealthStatus(
                0,
                HealthState.HEALTHY,
                HealthReason.Lifecycle.CREATED,
                HealthStage.INITIAL,
                nowNanos,
                0,
                0,
                ProbeHolder.NONE,
                0,
                false);
    }

    HealthStatus toCooling(HealthReason why, HealthStage by, long nowNanos, long backoff) {
        return new HealthStatus(
                sequence + 1,
                HealthState.COOLING,
                why,
                by,
                nowNanos,
                nowNanos + backoff,
                backoff,
                ProbeHolder.NONE,
                0,
                false);
    }

    HealthStatus toProbeAllowed(ProbeHolder holder, HealthStage by, long nowNanos, long probeDeadline) {
        return new HealthStatus(
                sequence + 1,
                HealthState.PROBE_ALLOWED,
                HealthReason.Lifecycle.COOLDOWN_ELAPSED,
                by,
                nowNanos,
                cooldownUntilNanos,
                backoffNanos,
                holder,
                probeDeadline,
                false);
    }

    /** A proxy nobody has checked yet, held for its first check: the prober holds the permit. */
    HealthStatus toAwaitingFirstCheck(long nowNanos, long probeDeadline) {
        return new HealthStatus(
                sequence + 1,
                HealthState.PROBE_ALLOWED,
                HealthReason.Lifecycle.CREATED,
                HealthStage.ACTIVE,
                nowNanos,
                0,
                0,
                ProbeHolder.PROBER,
                probeDeadline,
                false);
    }

    HealthStatus toHealthy(HealthReason why, HealthStage by, long nowNanos) {
        return new HealthStatus(sequence + 1, HealthState.HEALTHY, why, by, nowNanos, 0, 0, ProbeHolder.NONE, 0, true);
    }

    HealthStatus toDisabled(HealthReason why, HealthStage by, long nowNanos) {
        return new HealthStatus(
                sequence + 1, HealthState.DISABLED, why, by, nowNanos, 0, backoffNanos, ProbeHolder.NONE, 0, false);
    }

    /**
     * COOLING with its deadline now: the next admission takes the single recovery probe (one
     * controlled attempt before full traffic); the backoff is kept as the base of the next doubling.
     */
    HealthStatus toRecoveryCheck(HealthReason why, HealthStage by, long nowNanos) {
        return new HealthStatus(
                sequence + 1,
                HealthState.COOLING,
                why,
                by,
                nowNanos,
                nowNanos,
                backoffNanos,
                ProbeHolder.NONE,
                0,
                false);
    }
}
