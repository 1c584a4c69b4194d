package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;

/**
 * An I/O failure tagged with the side it happened on, so the relay can tell a client that went
 * away (not the proxy's fault) from an upstream that failed (passive health, maybe a retry).
 */
final class PeerIOException extends IOException {

    private final boolean client;

    PeerIOException(boolean client, IOException cause) {
        super((client ? "client: " : "upstream: ") + cause.getMessage(), cause);
        this.client = client;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // flow control on the relay path: the cause keeps the real trace
    }

    boolean client() {
        return client;
    }

    boolean timeout() {
        return getCause() instanceof SocketTimeoutException;
    }

    /** The peer broke the message framing (a malformed chunk size line, a missing CRLF, a bad trailer). */
    boolean framing() {
        return getCause() instanceof ProtocolException;
    }

    static PeerIOException wrap(boolean client, IOException e) {
        return e instanceof PeerIOException p ? p : new PeerIOException(client, e);
    }
}
