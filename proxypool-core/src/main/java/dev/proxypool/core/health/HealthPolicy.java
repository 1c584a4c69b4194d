package dev.proxypool.core.health;

import java.time.Duration;

/**
 * Health rules with the defaults of docs/configuration.md#health ({@code health:}). Validated on construction
 * with messages naming the config key.
 *
 * @param consecutiveFailures {@code health.passive.consecutiveFailures}: cool after this many failures in a row (3)
 * @param errorRate           {@code health.passive.errorRate}: cool when the window's error rate exceeds this (0.30)
 * @param window              {@code health.passive.window}: sliding window length (60 s)
 * @param minSamples          {@code health.passive.minSamples}: no error-rate verdict on fewer samples (20)
 * @param cooldownInitial     {@code health.cooldown.initial}: first cooldown (3 min)
 * @param cooldownMax         {@code health.cooldown.max}: cap of the doubling backoff (30 min)
 * @param probeTimeout        how long a granted probe may stay unanswered before it counts as failed (30 s)
 * @param domainBanDuration   {@code health.domainBan.duration}: per-domain exclusion (10 min)
 * @param maxBansPerProxy     {@code health.domainBan.maxPerProxy}: bound of remembered bans (1000)
 * @param slowStart           {@code health.slowStart}: weight ramp after recovery (60 s)
 * @param failuresToCool      {@code health.active.failuresToCool}: cool after this many failed active probes in a row (2)
 * @param distinctTargetFailures {@code health.passive.distinctTargetFailures}: cool after this many <em>different</em>
 *                            destinations in a row failed target-side through the proxy, with no success between (10)
 */
public record HealthPolicy(
        int consecutiveFailures,
        double errorRate,
        Duration window,
        int minSamples,
        Duration cooldownInitial,
        Duration cooldownMax,
        Duration probeTimeout,
        Duration domainBanDuration,
        int maxBansPerProxy,
        Duration slowStart,
        int failuresToCool,
        int distinctTargetFailures) {

    /** Default of {@code health.active.failuresToCool}. */
    public static final int DEFAULT_FAILURES_TO_COOL = 2;

    /** Default of {@code health.passive.distinctTargetFailures}. */
    public static final int DEFAULT_DISTINCT_TARGET_FAILURES = 10;

    /** Every default of docs/configuration.md#health, as listed on the components. */
    public static final HealthPolicy DEFAULTS = new HealthPolicy(
            3,
            0.30,
            Duration.ofSeconds(60),
            20,
            Duration.ofMinutes(3),
            Duration.ofMinutes(30),
            Duration.ofSeconds(30),
            Duration.ofMinutes(10),
            1000,
            Duration.ofSeconds(60),
            DEFAULT_FAILURES_TO_COOL,
            DEFAULT_DISTINCT_TARGET_FAILURES);

    /**
     * The policy without a target-failure setting: {@code distinctTargetFailures} takes its default (10).
     *
     * @param consecutiveFailures {@code health.passive.consecutiveFailures}, at least 1
     * @param errorRate           {@code health.passive.errorRate}, in (0, 1]
     * @param window              {@code health.passive.window}, positive
     * @param minSamples          {@code health.passive.minSamples}, at least 1
     * @param cooldownInitial     {@code health.cooldown.initial}, positive
     * @param cooldownMax         {@code health.cooldown.max}, not below {@code cooldownInitial}
     * @param probeTimeout        {@code health.probeTimeout}, positive
     * @param domainBanDuration   {@code health.domainBan.duration}, positive
     * @param maxBansPerProxy     {@code health.domainBan.maxPerProxy}, at least 1
     * @param slowStart           {@code health.slowStart}, zero (no ramp) or positive
     * @param failuresToCool      {@code health.active.failuresToCool}, at least 1
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public HealthPolicy(
            int consecutiveFailures,
            double errorRate,
            Duration window,
            int minSamples,
            Duration cooldownInitial,
            Duration cooldownMax,
            Duration probeTimeout,
            Duration domainBanDuration,
            int maxBansPerProxy,
            Duration slowStart,
            int failuresToCool) {
        this(
                consecutiveFailures,
                errorRate,
                window,
                minSamples,
                cooldownInitial,
                cooldownMax,
                probeTimeout,
                domainBanDuration,
                maxBansPerProxy,
                slowStart,
                failuresToCool,
                DEFAULT_DISTINCT_TARGET_FAILURES);
    }

    /**
     * The policy without an active-probe setting: {@code failuresToCool} takes its default (2).
     *
     * @param consecutiveFailures {@code health.passive.consecutiveFailures}, at least 1
     * @param errorRate           {@code health.passive.errorRate}, in (0, 1]
     * @param window              {@code health.passive.window}, positive
     * @param minSamples          {@code health.passive.minSamples}, at least 1
     * @param cooldownInitial     {@code health.cooldown.initial}, positive
     * @param cooldownMax         {@code health.cooldown.max}, not below {@code cooldownInitial}
     * @param probeTimeout        {@code health.probeTimeout}, positive
     * @param domainBanDuration   {@code health.domainBan.duration}, positive
     * @param maxBansPerProxy     {@code health.domainBan.maxPerProxy}, at least 1
     * @param slowStart           {@code health.slowStart}, zero (no ramp) or positive
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public HealthPolicy(
            int consecutiveFailures,
            double errorRate,
            Duration window,
            int minSamples,
            Duration cooldownInitial,
            Duration cooldownMax,
            Duration probeTimeout,
            Duration domainBanDuration,
            int maxBansPerProxy,
            Duration slowStart) {
        this(
                consecutiveFailures,
                errorRate,
                window,
                minSamples,
                cooldownInitial,
                cooldownMax,
                probeTimeout,
                domainBanDuration,
                maxBansPerProxy,
                slowStart,
                DEFAULT_FAILURES_TO_COOL);
    }

    /**
     * Validates every threshold.
     *
     * @throws IllegalArgumentException naming the config key of the first value out of range
     */
    public HealthPolicy {
        if (consecutiveFailures < 1) {
            throw new IllegalArgumentException(
                    "health.passive.consecutiveFailures must be at least 1, got " + consecutiveFailures);
        }
        if (!(errorRate > 0 && errorRate <= 1)) {
            throw new IllegalArgumentException("health.passive.errorRate must be in (0, 1], got " + errorRate);
        }
        positive("health.passive.window", window);
        if (minSamples < 1) {
            throw new IllegalArgumentException("health.passive.minSamples must be at least 1, got " + minSamples);
        }
        positive("health.cooldown.initial", cooldownInitial);
        positive("health.cooldown.max", cooldownMax);
        if (cooldownMax.compareTo(cooldownInitial) < 0) {
            throw new IllegalArgumentException("health.cooldown.max (" + cooldownMax
                    + ") must not be below health.cooldown.initial (" + cooldownInitial + ")");
        }
        positive("health.probeTimeout", probeTimeout);
        positive("health.domainBan.duration", domainBanDuration);
        if (maxBansPerProxy < 1) {
            throw new IllegalArgumentException(
                    "health.domainBan.maxPerProxy must be at least 1, got " + maxBansPerProxy);
        }
        if (slowStart == null || slowStart.isNegative()) {
            throw new IllegalArgumentException("health.slowStart must be zero or positive, got " + slowStart);
        }
        if (failuresToCool < 1) {
            throw new IllegalArgumentException(
                    "health.active.failuresToCool must be at least 1, got " + failuresToCool);
        }
        if (distinctTargetFailures < 1) {
            throw new IllegalArgumentException(
                    "health.passive.distinctTargetFailures must be at least 1, got " + distinctTargetFailures);
        }
    }

    /**
     * This policy with {@code health.passive.distinctTargetFailures} set to {@code n}.
     *
     * @param n the new threshold, at least 1
     * @return a new policy; this one is unchanged
     * @throws IllegalArgumentException if {@code n} is below 1
     */
    public HealthPolicy withDistinctTargetFailures(int n) {
        return new HealthPolicy(
                consecutiveFailures,
                errorRate,
                window,
                minSamples,
                cooldownInitial,
                cooldownMax,
                probeTimeout,
                domainBanDuration,
                maxBansPerProxy,
                slowStart,
                failuresToCool,
                n);
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }
}
