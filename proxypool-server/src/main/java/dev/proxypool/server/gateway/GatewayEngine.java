package dev.proxypool.server.gateway;

/**
 * The gateway wire layer's one dependency on the rest of the product: given a request, decide
 * where it goes. The real implementation (dispatcher over the pool snapshot, sticky sessions,
 * health, SDK dialers) is wired in by the server; {@code DirectEngine} and
 * {@code StaticUpstreamEngine} stand in for tests and the load harness.
 *
 * <p>Contract: {@link #route} runs on the request's virtual thread, must not block on anything
 * remote, and returns either a {@link RouteDecision.Rejected} or an {@link UpstreamAttempt} that
 * holds one unit of the chosen proxy's capacity. The wire layer completes every attempt exactly
 * once, in a {@code finally}, so {@link #inFlight()} returns to 0 after any workload and any fault.
 * Implementations are thread-safe.
 */
public interface GatewayEngine {

    RouteDecision route(RouteRequest request);

    /**
     * {@link #route} for an event loop, which must not wait: the same checks and the same pick, but a
     * destination name the engine would look up is left to the attempt's {@link UpstreamAttempt#dial()}
     * (which then says so with {@link UpstreamAttempt#dialBlocks()}, and may throw {@link
     * RouteRefusedException}). A request whose routing may wait for a proxy gets {@code null}, before any
     * check or count: the caller then routes it with {@link #route} on a thread that may wait. Default:
     * {@link #route}, for engines that neither look anything up nor wait.
     *
     * @param request the request
     * @return as {@link #route}, or {@code null}: route this one with {@link #route} off the loop
     */
    default RouteDecision routeWithoutLookup(RouteRequest request) {
        return route(request);
    }

    /** Attempts routed and not yet completed (capacity currently held). */
    int inFlight();
}
