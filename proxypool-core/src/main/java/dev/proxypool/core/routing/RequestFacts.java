package dev.proxypool.core.routing;

/**
 * What routing needs to know about one gateway request, read straight from the gateway's own
 * request object (an adapter, not a copy): {@link RoutingTable#route(RequestFacts)} calls these
 * accessors on the hot path, so implementations should return fields they already hold.
 *
 * <p>Absent values are {@code null} (the one place this API uses null, to avoid allocating an
 * {@code Optional} per request): a rule that constrains an absent fact does not match.
 */
public interface RequestFacts {

    /**
     * The authenticated client name, or {@code null} when the request is anonymous.
     *
     * @return the client name, or {@code null}
     */
    String client();

    /**
     * The target host as the client sent it: a name or an IP literal, without the port. Case, a
     * trailing dot and IPv6 brackets are tolerated (routing normalizes while comparing).
     *
     * @return the host, never null for a routable request
     */
    String host();

    /**
     * The target port (1..65535).
     *
     * @return the port
     */
    int port();

    /**
     * The request method ({@code GET}, {@code CONNECT}, ...), compared case-insensitively.
     *
     * @return the method as received
     */
    String method();

    /**
     * The first value of request header {@code name}, or {@code null} when absent. Routing passes
     * names in lower case; the implementation must look them up case-insensitively, as HTTP does.
     *
     * @param name the header name, lower case
     * @return the first value, or {@code null}
     */
    String header(String name);
}
