package dev.proxypool.server.gateway;

/**
 * Why a listener closed a client connection by itself, before or between requests: the {@code
 * reason} tag of {@code proxypool_connections_closed_total{listener,reason}} (a closed set).
 */
public final class ClosedReason {

    /** No complete first request within {@code server.firstRequestTimeout} of accept (TLS handshake included). */
    public static final String FIRST_REQUEST_TIMEOUT = "first_request_timeout";
    /** A request head not complete within {@code server.requestHeadTimeout} of its first byte (408). */
    public static final String REQUEST_HEAD_TIMEOUT = "request_head_timeout";
    /** Accepted while {@code server.maxConnections} were open: closed at once. */
    public static final String MAX_CONNECTIONS = "max_connections";
    /** Accepted while the client's address held {@code server.maxConnectionsPerAddress}: closed at once. */
    public static final String PER_ADDRESS_LIMIT = "per_address_limit";

    /** The {@code listener} tag of the gateway's HTTP proxy listener (plain or TLS). */
    public static final String LISTENER_GATEWAY = "gateway";
    /** The {@code listener} tag of the SOCKS5 listener. */
    public static final String LISTENER_SOCKS = "socks";

    private ClosedReason() {}
}
