package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.InetAddress;

/**
 * One try through one proxy. It holds a unit of that proxy's capacity from {@link
 * GatewayEngine#route} until {@link #complete}, which the wire layer calls exactly once;
 * implementations make {@code complete} idempotent anyway.
 *
 * <p>{@link #proxyId()}, {@link #upstream()} and {@link #routing()} go into the explainability
 * headers: opaque names, never an address or a credential.
 */
public non-sealed interface UpstreamAttempt extends RouteDecision {

    /** Opaque proxy id ({@code X-ProxyPool-Proxy}). */
    String proxyId();

    /** Upstream (feed) name ({@code X-ProxyPool-Upstream}). */
    String upstream();

    /** Routing name ({@code X-ProxyPool-Routing}). */
    String routing();

    /**
     * A request header the routing consumed itself and that is not forwarded upstream (its
     * sticky-session header, docs/design.md#gateway-flow G5: read, then stripped), or {@code null}. The gateway's own
     * {@code X-ProxyPool-*} headers are never forwarded anyway.
     */
    default String consumedHeader() {
        return null;
    }

    /**
     * The checked address this attempt sends the upstream instead of the request's host name (the
     * gateway resolved it: {@code resolveDestinations}), or {@code null}: the upstream resolves the name.
     * A tunnel is opened to it; a forwarded request names it in its request target and keeps the name
     * in {@code Host}.
     */
    default InetAddress resolvedTarget() {
        return null;
    }

    /**
     * How the gateway opens this attempt's connection without blocking: the first hop's address, the
     * proxy handshake that opens a tunnel, TLS to the proxy (for a tunnel, the mode is {@link
     * UpstreamDial.Mode#TUNNEL}). Called at most once per attempt, right after {@link
     * GatewayEngine#route}: on the event loop when {@link #dialBlocks()} is false, else on another thread.
     *
     * @return the dial
     * @throws UpstreamDialException when the proxy cannot be dialed (e.g. its name does not resolve)
     * @throws RouteRefusedException when the destination's lookup left to the dial refuses the request
     * @throws IOException           when the dial cannot be prepared otherwise
     */
    UpstreamDial dial() throws IOException;

    /**
     * Whether {@link #dial()} may wait (a name to look up: the proxy's own, or the destination's that
     * {@link GatewayEngine#routeWithoutLookup} left to it), so that an event loop calls it on another
     * thread; false when it only builds the dial from addresses at hand. Default: true.
     */
    default boolean dialBlocks() {
        return true;
    }

    /**
     * The gateway opened this attempt's connection (its handshake done) after {@code dialNanos}: the
     * proxy's dial latency. Default: nothing.
     */
    default void connected(long dialNanos) {}

    /**
     * The final response head arrived with {@code status}, before any of it is relayed to the client.
     * Lets a destination's refusal (403/429) take effect before the client can retry. Default: nothing.
     */
    default void answered(int status) {}

    /** Ends the attempt and releases its capacity; feeds passive health. Idempotent. */
    void complete(AttemptOutcome outcome);
}
