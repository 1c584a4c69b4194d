package dev.proxypool.sdk.dial;

import dev.proxypool.sdk.credentials.Secret;
import java.io.IOException;
import java.net.Socket;

/**
 * A connection to an HTTP(S) upstream proxy for plain-HTTP forwarding without {@code CONNECT}:
 * the caller writes absolute-form requests ({@code GET http://host/path HTTP/1.1}) and injects
 * {@link #proxyAuthorization()} as the {@code Proxy-Authorization} header when it is not empty.
 * For an HTTPS proxy the socket is already TLS-handshaken.
 *
 * @param socket             connected to the proxy, no read timeout set
 * @param proxyAuthorization the header value ({@code Basic ...}); {@link Secret#EMPTY} when the
 *                           proxy needs no credentials
 */
public record ForwardingConnection(Socket socket, Secret proxyAuthorization) implements AutoCloseable {

    public ForwardingConnection {
        if (socket == null || proxyAuthorization == null) {
            throw new IllegalArgumentException("a forwarding connection needs a socket and a (possibly empty) header");
        }
    }

    public boolean hasProxyAuthorization() {
        return !proxyAuthorization.isEmpty();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    @Override
    public String toString() {
        return "ForwardingConnection[" + (socket.isClosed() ? "closed" : "open")
                + (hasProxyAuthorization() ? ", Proxy-Authorization ***" : "") + "]";
    }
}
