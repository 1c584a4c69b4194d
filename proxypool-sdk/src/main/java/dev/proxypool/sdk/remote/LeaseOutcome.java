package dev.proxypool.sdk.remote;

import dev.proxypool.core.health.FailureKind;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the use of a leased proxy went, for {@link DistributionClient#release}: it feeds the pool's
 * health exactly as the gateway's own outcomes do. Immutable.
 *
 * <pre>{@code
 * client.release(LeaseOutcome.ok(lease.leaseId()).latency(Duration.ofMillis(180)));
 * client.release(LeaseOutcome.failed(lease.leaseId(), FailureKind.CONNECT_TIMEOUT));
 * }</pre>
 */
public final class LeaseOutcome {

    private final String leaseId;
    private final String outcome;
    private final Duration latency;
    private final String bannedDomain;

    private LeaseOutcome(String leaseId, String outcome, Duration latency, String bannedDomain) {
        if (leaseId == null || leaseId.isBlank()) {
            throw new IllegalArgumentException("leaseId must not be blank");
        }
        this.leaseId = leaseId;
        this.outcome = outcome;
        this.latency = latency;
        this.bannedDomain = bannedDomain;
    }

    /**
     * The proxy carried the traffic.
     *
     * @param leaseId the lease
     * @return the outcome
     */
    public static LeaseOutcome ok(String leaseId) {
        return new LeaseOutcome(leaseId, "ok", null, null);
    }

    /**
     * Reaching or speaking to the proxy failed with {@code kind}.
     *
     * @param leaseId the lease
     * @param kind    what failed
     * @return the outcome
     */
    public static LeaseOutcome failed(String leaseId, FailureKind kind) {
        return new LeaseOutcome(leaseId, Objects.requireNonNull(kind, "kind").wireName(), null, null);
    }

    /**
     * Not used, or given up for reasons of the client's own: nothing is reported to health.
     *
     * @param leaseId the lease
     * @return the outcome
     */
    public static LeaseOutcome abandoned(String leaseId) {
        return new LeaseOutcome(leaseId, "abandoned", null, null);
    }

    /**
     * The latency of the use (whole milliseconds, at most one hour), which feeds the proxy's weight.
     *
     * @param d the latency
     * @return a new outcome
     */
    public LeaseOutcome latency(Duration d) {
        if (d == null || d.isNegative() || d.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("latency must be between 0 and 1 h, got " + d);
        }
        return new LeaseOutcome(leaseId, outcome, d, bannedDomain);
    }

    /**
     * The destination refused traffic through this proxy (a 403, 429, captcha): it is excluded for
     * that domain for the ban period and stays healthy for every other.
     *
     * @param domain the destination's domain
     * @return a new outcome
     */
    public LeaseOutcome bannedDomain(String domain) {
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("bannedDomain must not be blank");
        }
        return new LeaseOutcome(leaseId, outcome, latency, domain.strip());
    }

    /**
     * The lease.
     *
     * @return its id
     */
    public String leaseId() {
        return leaseId;
    }

    /**
     * {@code ok}, {@code abandoned} or a failure kind's wire name.
     *
     * @return the outcome
     */
    public String outcome() {
        return outcome;
    }

    /**
     * The latency reported.
     *
     * @return the latency, if given
     */
    public Optional<Duration> latency() {
        return Optional.ofNullable(latency);
    }

    /**
     * The domain reported as banning the proxy.
     *
     * @return the domain, if given
     */
    public Optional<String> bannedDomain() {
        return Optional.ofNullable(bannedDomain);
    }
}
