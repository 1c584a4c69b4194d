package dev.proxypool.sdk.dial;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Objects;

/**
 * A tunnel opened by {@link UpstreamDialer#openTunnel}: the socket (no read timeout set) and the
 * stream to read the tunnel from, which first serves the bytes the handshake read past the proxy's
 * reply, if any, then the socket's own.
 *
 * @param socket connected through the proxy to the target; the caller owns and closes it
 * @param input  the tunnel's bytes from the target
 * @param output the socket's output stream
 */
public record TunnelConnection(Socket socket, InputStream input, OutputStream output) implements AutoCloseable {

    public TunnelConnection {
        if (socket == null || input == null || output == null) {
            throw new IllegalArgumentException("a tunnel connection needs a socket and its streams");
        }
    }

    static TunnelConnection of(Socket socket, byte[] early) throws IOException {
        InputStream in = socket.getInputStream();
        return new TunnelConnection(
                socket, early.length == 0 ? in : new EarlyBytesInput(early, in), socket.getOutputStream());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    @Override
    public String toString() {
        return "TunnelConnection[" + (socket.isClosed() ? "closed" : "open") + "]";
    }

    /** Serves {@code early} first, then {@code rest}; one reader at a time. */
    private static final class EarlyBytesInput extends InputStream {
        private final byte[] early;
        private final InputStream rest;
        private int pos;

        EarlyBytesInput(byte[] early, InputStream rest) {
            this.early = early;
            this.rest = rest;
        }

        @Override
        public int read() throws IOException {
            return pos < early.length ? early[pos++] & 0xFF : rest.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (pos < early.length) {
                int n = Math.min(len, early.length - pos);
                System.arraycopy(early, pos, b, off, n);
                pos += n;
                return n;
            }
            return rest.read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            return pos < early.length ? early.length - pos : rest.available();
        }

        @Override
        public void close() throws IOException {
            rest.close();
        }
    }
}
