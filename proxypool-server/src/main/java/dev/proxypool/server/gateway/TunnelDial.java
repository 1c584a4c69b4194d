package dev.proxypool.server.gateway;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What the event-loop data plane connects to, without blocking, to open an attempt's tunnel: the
 * first hop's address and how long the TCP connect may take. Without a proxy handshake the
 * connection is the tunnel itself (a direct attempt).
 *
 * @param address              the address to connect to (already resolved: no lookup on a loop)
 * @param connectTimeoutMillis the TCP connect's bound
 */
public record TunnelDial(InetSocketAddress address, int connectTimeoutMillis) {

    public TunnelDial {
        Objects.requireNonNull(address, "address");
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("tunnel dial address must be resolved");
        }
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive, got " + connectTimeoutMillis);
        }
    }
}
