package dev.proxypool.server.api.lease;

import dev.proxypool.core.health.FailureKind;

/**
 * A parsed {@code POST /v1/proxy/release} body.
 *
 * @param leaseId      the lease to release
 * @param outcome      {@code ok}, {@code abandoned} or a failure kind's wire name
 * @param failure      the failure kind, {@code null} unless the outcome is one
 * @param latencyMs    the reported latency, -1 when not given
 * @param bannedDomain a domain that refused traffic through the proxy, {@code null} when none
 */
record ReleaseCall(String leaseId, String outcome, FailureKind failure, long latencyMs, String bannedDomain) {

    /** The proxy carried the traffic. */
    static final String OK = "ok";
    /** Neither success nor the proxy's failure (the client gave up): nothing is reported to health. */
    static final String ABANDONED = "abandoned";
}
