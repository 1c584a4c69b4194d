package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of {@code POST /v1/proxy/release}.
 *
 * @param leaseId      the lease (required)
 * @param outcome      {@code ok}, {@code abandoned} or a failure kind (required)
 * @param latencyMs    how long the use took
 * @param bannedDomain a domain that banned the proxy
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReleaseRequestBody(String leaseId, String outcome, Long latencyMs, String bannedDomain) {}
