package dev.proxypool.sdk.rest;

import java.util.Map;

/**
 * One proxy of {@code GET /v1/proxy/list}, its address masked.
 *
 * @param id             the proxy's id
 * @param protocol       its protocol's wire name
 * @param host           its host, masked
 * @param port           its port
 * @param upstream       its upstream
 * @param labels         its labels
 * @param state          its health state, or null before its first check
 * @param inFlight       leases and tunnels using it now
 * @param maxConcurrency how many it takes at once
 * @param acquirable     whether an acquire could get it now
 * @param expiresAt      when it expires (ISO-8601), or null
 */
public record ListedProxyBody(
        String id,
        String protocol,
        String host,
        Integer port,
        String upstream,
        Map<String, String> labels,
        String state,
        Integer inFlight,
        Integer maxConcurrency,
        Boolean acquirable,
        String expiresAt) {}
