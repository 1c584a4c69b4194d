package dev.proxypool.server.gateway;

import java.util.List;

/**
 * What the wire layer knows when it asks for a route.
 *
 * @param client        the authenticated client name ("anonymous" when authentication is off)
 * @param host          target host, lower-case; IPv6 literals without brackets
 * @param port          target port
 * @param method        request method ({@code CONNECT} for tunnels)
 * @param tunnel        true for CONNECT: the engine must return a {@link UpstreamDial.Mode#TUNNEL} link
 * @param headers       the client's request headers (valid during the call only)
 * @param attempt       1 for the first attempt, 2.. for retries
 * @param triedProxyIds opaque ids already tried for this request: a retry must pick another proxy
 */
public record RouteRequest(
        String client,
        String host,
        int port,
        String method,
        boolean tunnel,
        HeaderLookup headers,
        int attempt,
        List<String> triedProxyIds) {}
