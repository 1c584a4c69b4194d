package dev.proxypool.server.gateway;

import dev.proxypool.sdk.dial.UpstreamHandshake;
import java.net.InetSocketAddress;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * What the event-loop data plane connects to, without blocking, to open an attempt: the first hop's
 * address, how long the TCP connect may take, and what the connection is once open: a {@link
 * Mode#TUNNEL} that reaches the target (a direct connection, or one through a proxy
 * once {@link #handshake} opened the tunnel), or a {@link Mode#FORWARD} connection to
 * an HTTP proxy that takes absolute-form requests with {@code injectedHeader}. Connections of the
 * same {@link #poolKey} are interchangeable: an idle keep-alive connection of a plain request may
 * serve the next one with that key.
 *
 * @param address                the address to connect to (already resolved: no lookup on a loop)
 * @param connectTimeoutMillis   the TCP connect's bound
 * @param mode                   what the open connection is
 * @param injectedHeader         added to FORWARD requests (the proxy's {@code Proxy-Authorization}), or null
 * @param poolKey                which idle connections may serve this attempt's plain requests, or null: none
 * @param handshake              the proxy handshake that opens the tunnel (the codec the blocking dialer
 *                               drives too), or null: the connection is the tunnel
 * @param handshakeTimeoutMillis the bound on TLS and handshake together, from the connect
 * @param tls                    TLS to the proxy itself (an HTTPS proxy), or null
 * @param tlsHost                the proxy's host name TLS verifies
 */
public record UpstreamDial(
        InetSocketAddress address,
        int connectTimeoutMillis,
        Mode mode,
        InjectedHeader injectedHeader,
        String poolKey,
        UpstreamHandshake handshake,
        int handshakeTimeoutMillis,
        SSLContext tls,
        String tlsHost) {

    /** What an open connection is. */
    public enum Mode {
        /** To an HTTP proxy: absolute-form requests, with {@link UpstreamDial#injectedHeader} added. */
        FORWARD,
        /** A byte stream that reaches the target: origin-form HTTP, or a CONNECT's raw bytes. */
        TUNNEL
    }

    /** A header the gateway adds to requests on a FORWARD connection; its toString hides the value. */
    public record InjectedHeader(String name, String value) {
        @Override
        public String toString() {
            return name + ": ***";
        }
    }

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

    /** A connection without handshake or TLS. */
    public UpstreamDial(
            InetSocketAddress address,
            int connectTimeoutMillis,
            Mode mode,
            InjectedHeader injectedHeader,
            String poolKey) {
        this(address, connectTimeoutMillis, mode, injectedHeader, poolKey, null, 0, null, null);
    }

    /**
     * Whether {@code host} is an IPv4 dotted quad or an IPv6 literal: an address {@link
     * java.net.InetAddress#ofLiteral} reads without a lookup. A strict reading: any other spelling
     * counts as a name (looked up off the loop).
     *
     * @param host a host as configured, IPv6 without brackets
     * @return true for an address literal
     */
    public static boolean isAddressLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true; // no name holds a colon: an IPv6 literal, or no address at all (fails without DNS)
        }
        int parts = 0;
        int value = -1;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '.') {
                if (value < 0 || ++parts > 3) {
                    return false;
                }
                value = -1;
            } else if (c >= '0' && c <= '9') {
                value = value < 0 ? c - '0' : value * 10 + (c - '0');
                if (value > 255) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return parts == 3 && value >= 0;
    }

    /** A direct connection to {@code address}: the connection is the tunnel itself. */
    public static UpstreamDial direct(InetSocketAddress address, int connectTimeoutMillis) {
        return new UpstreamDial(address, connectTimeoutMillis, Mode.TUNNEL, null, null);
    }

    /** This dial with a proxy handshake opening the tunnel within {@code timeoutMillis} of the connect. */
    public UpstreamDial withHandshake(UpstreamHandshake h, int timeoutMillis) {
        return new UpstreamDial(
                address, connectTimeoutMillis, mode, injectedHeader, poolKey, h, timeoutMillis, tls, tlsHost);
    }

    /** This dial with TLS to the proxy ({@code context} null: none), verified for {@code host}. */
    public UpstreamDial withTls(SSLContext context, String host) {
        return new UpstreamDial(
                address,
                connectTimeoutMillis,
                mode,
                injectedHeader,
                poolKey,
                handshake,
                handshakeTimeoutMillis,
                context,
                host);
    }
}
