package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.SSLEngine;

/**
 * Puts server-side TLS over an accepted plain socket ({@code server.gatewayTls}). The listener accepts
 * plain sockets and layers TLS over them, rather than accepting from a TLS server socket, so that the
 * plain socket stays reachable: closing it from another thread ends a handshake blocked in a read,
 * which is how {@link FirstRequestDeadline} bounds a trickled ClientHello.
 */
@FunctionalInterface
public interface TlsLayer {

    /** A server-mode TLS socket over {@code plain} that closes {@code plain} when closed; its handshake starts at its first read. */
    Socket wrap(Socket plain) throws IOException;

    /**
     * A server-mode engine with the same certificate (read anew when the files changed) and
     * parameters, for the event-loop listener's {@code SslHandler}; null when this layer has none.
     */
    default SSLEngine engine() {
        return null;
    }
}
