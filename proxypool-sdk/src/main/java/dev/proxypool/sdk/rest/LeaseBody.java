package dev.proxypool.sdk.rest;

import java.util.Map;

/**
 * The {@code 200} answer of {@code POST /v1/proxy/acquire}.
 *
 * @param leaseId     the lease's id (give it to the release)
 * @param state       {@code held}, {@code released} or {@code expired}
 * @param proxyId     the proxy's id
 * @param url         the proxy's URL, credentials included: never log it
 * @param protocol    its protocol's wire name
 * @param host        its host
 * @param port        its port
 * @param upstream    its upstream
 * @param routing     the routing that chose it
 * @param labels      its labels
 * @param session     the session, or null
 * @param acquiredAt  when the lease began (ISO-8601)
 * @param expiresAt   when the server releases it on its own (ISO-8601)
 * @param holdSeconds the hold time granted
 */
public record LeaseBody(
        String leaseId,
        String state,
        String proxyId,
        String url,
        String protocol,
        String host,
        Integer port,
        String upstream,
        String routing,
        Map<String, String> labels,
        String session,
        String acquiredAt,
        String expiresAt,
        Long holdSeconds) {}
