package dev.proxypool.server.gateway;

/**
 * The engine's answer: a rejection the wire layer turns into a status and {@code X-ProxyPool-Error},
 * or an {@link UpstreamAttempt} holding capacity on one proxy.
 */
public sealed interface RouteDecision permits RouteDecision.Rejected, UpstreamAttempt {

    /**
     * No attempt: answer {@code status} with {@code X-ProxyPool-Error: reason}.
     *
     * @param status  HTTP status (503 no_candidate / no_route, 429 rate_limited, 403 destination_denied,
     *                502 session_lost ...)
     * @param reason  one of {@link GatewayErrors}
     * @param routing the routing that matched, or "none"
     */
    record Rejected(int status, String reason, String routing) implements RouteDecision {
        public Rejected {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("rejected.status must be 4xx or 5xx, got " + status);
            }
        }
    }
}
