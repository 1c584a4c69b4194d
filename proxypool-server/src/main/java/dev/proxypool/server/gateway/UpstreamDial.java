package dev.proxypool.server.gateway;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What the event-loop data plane connects to, without blocking, to open an attempt: the first hop's
 * address, how long the TCP connect may take, and what the connection is once open: a {@link
 * UpstreamLink.Mode#TUNNEL} that reaches the target (a direct connection), or a {@link
 * UpstreamLink.Mode#FORWARD} connection to an HTTP proxy that takes absolute-form requests with
 * {@code injectedHeader}. Connections of the same {@link #poolKey} are interchangeable: an idle
 * keep-alive FORWARD or TUNNEL connection of a plain request may serve the next one with that key.
 *
 * @param address              the address to connect to (already resolved: no lookup on a loop)
 * @param connectTimeoutMillis the TCP connect's bound
 * @param mode                 what the open connection is
 * @param injectedHeader       added to FORWARD requests (the proxy's {@code Proxy-Authorization}), or null
 * @param poolKey              which idle connections may serve this attempt's plain requests, or null: none
 */
public record UpstreamDial(
        InetSocketAddress address,
        int connectTimeoutMillis,
        UpstreamLink.Mode mode,
        UpstreamLink.InjectedHeader injectedHeader,
        String poolKey) {

    public UpstreamDial {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(mode, "mode");
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("upstream dial address must be resolved");
        }
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive, got " + connectTimeoutMillis);
        }
    }

    /** A direct connection to {@code address}: the connection is the tunnel itself. */
    public static UpstreamDial direct(InetSocketAddress address, int connectTimeoutMillis) {
        return new UpstreamDial(address, connectTimeoutMillis, UpstreamLink.Mode.TUNNEL, null, null);
    }
}
