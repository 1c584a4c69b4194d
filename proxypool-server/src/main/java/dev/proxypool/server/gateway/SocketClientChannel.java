package dev.proxypool.server.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.OptionalLong;
import javax.net.ssl.SSLSocket;

/** A {@link ClientChannel} over an accepted {@link Socket}. */
final class SocketClientChannel implements ClientChannel {

    private static final int LINGER_MILLIS = 500;
    private static final int LINGER_MAX_BYTES = 256 * 1024;

    private final Socket socket;
    /** The accepted TCP socket: {@link #socket} itself, or the one a TLS socket is layered over. */
    private final Socket plain;

    private final InputStream in;
    private final OutputStream out;

    private final OptionalLong acceptedAt;

    SocketClientChannel(Socket socket) throws IOException {
        this(socket, socket, OptionalLong.empty());
    }

    /** A channel over {@code socket}, which is {@code plain} or TLS layered over it, accepted at {@code acceptedAt}. */
    SocketClientChannel(Socket socket, Socket plain, OptionalLong acceptedAt) throws IOException {
        this.socket = socket;
        this.plain = plain;
        this.acceptedAt = acceptedAt;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    @Override
    public InputStream input() {
        return in;
    }

    @Override
    public OutputStream output() {
        return out;
    }

    @Override
    public void readTimeout(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException ignored) {
            // closed already: the next read fails and ends the connection
        }
    }

    @Override
    public boolean readsInterruptible() {
        // a socket channel's shutdownInput wakes its blocked reader (virtual or platform thread) with end of
        // stream; a layered TLS socket is left to its read timeouts
        return socketChannel() != null;
    }

    @Override
    public OptionalLong acceptedAt() {
        return acceptedAt;
    }

    @Override
    public boolean abortable() {
        // closing a socket channel wakes its blocked reader, the TLS layer's read of a handshake included
        return plain.getChannel() != null;
    }

    @Override
    public void abort() {
        try {
            plain.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void shutdownInput() {
        try {
            socket.shutdownInput();
        } catch (IOException ignored) {
            // closed already: the blocked read fails and ends the connection
        }
    }

    @Override
    public void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void closeGracefully() {
        try {
            socket.shutdownOutput();
            socket.setSoTimeout(LINGER_MILLIS);
            byte[] sink = new byte[8192];
            int total = 0;
            int n;
            while (total < LINGER_MAX_BYTES && (n = in.read(sink)) >= 0) {
                total += n;
            }
        } catch (IOException ignored) {
            // timeout or reset: we are closing anyway
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do
        }
    }

    @Override
    public SocketChannel socketChannel() {
        // a layered SSLSocket answers getChannel() with the channel under it: its bytes are ciphertext
        return socket instanceof SSLSocket ? null : socket.getChannel();
    }

    @Override
    public String peer() {
        return socket.getRemoteSocketAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress()
                : "?";
    }
}
