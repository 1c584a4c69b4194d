package dev.proxypool.server.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLSocket;

/**
 * An open connection for one attempt, made by an engine's dialer.
 *
 * <ul>
 *   <li>{@link Mode#FORWARD}: a connection to an HTTP proxy; the gateway sends absolute-form requests
 *       and adds {@link #injectedHeader()} (e.g. the proxy's {@code Proxy-Authorization}).</li>
 *   <li>{@link Mode#TUNNEL}: a byte stream that reaches the target (a CONNECT-chained or SOCKS tunnel,
 *       or a direct socket); HTTP goes in origin-form, CONNECT relays raw bytes.</li>
 * </ul>
 *
 * <p>{@link #release(boolean)} hands the link back: a reusable one goes to the engine's
 * {@link Recycler} (an idle pool), anything else is closed. Used by one thread at a time.
 */
public final class UpstreamLink {

    public enum Mode {
        FORWARD,
        TUNNEL
    }

    /** A header the gateway adds to requests on a FORWARD link; its toString hides the value. */
    public record InjectedHeader(String name, String value) {
        @Override
        public String toString() {
            return name + ": ***";
        }
    }

    /** Takes back a link whose last exchange ended cleanly (keep-alive). */
    @FunctionalInterface
    public interface Recycler {
        void recycle(UpstreamLink link);
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Mode mode;
    private final InjectedHeader injectedHeader;
    private final Recycler recycler;
    private boolean reused;
    private WireReader reader;
    private WireWriter writer;

    /**
     * @param socket         the connected socket (closed by {@link #close()})
     * @param in             its input, possibly with bytes the dialer already buffered
     * @param injectedHeader header for FORWARD requests, or {@code null}
     * @param recycler       where a reusable link goes, or {@code null} to always close
     */
    public UpstreamLink(
            Socket socket,
            InputStream in,
            OutputStream out,
            Mode mode,
            InjectedHeader injectedHeader,
            Recycler recycler) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.mode = mode;
        this.injectedHeader = injectedHeader;
        this.recycler = recycler;
    }

    /** A link over a plain socket's own streams. */
    public static UpstreamLink of(Socket socket, Mode mode, InjectedHeader injectedHeader, Recycler recycler)
            throws IOException {
        return new UpstreamLink(
                socket, socket.getInputStream(), socket.getOutputStream(), mode, injectedHeader, recycler);
    }

    public Socket socket() {
        return socket;
    }

    public InputStream input() {
        return in;
    }

    public OutputStream output() {
        return out;
    }

    public Mode mode() {
        return mode;
    }

    /** The header to inject, or {@code null}. */
    public InjectedHeader injectedHeader() {
        return injectedHeader;
    }

    /** True when this link already carried an exchange (it came from an idle pool). */
    public boolean reused() {
        return reused;
    }

    /** Marks the link as taken from an idle pool; engines call this when they hand it out again. */
    public void markReused() {
        this.reused = true;
    }

    /** Returns the link to its recycler when {@code reusable}, else closes it. */
    public void release(boolean reusable) {
        if (reusable && recycler != null && !socket.isClosed()) {
            recycler.recycle(this);
        } else {
            close();
        }
    }

    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }

    /**
     * The plain socket channel of this link, for the selector relay of tunnels; {@code null} for
     * a socket without one or under TLS (its bytes are ciphertext).
     */
    SocketChannel channel() {
        return socket instanceof SSLSocket ? null : socket.getChannel();
    }

    void readTimeout(int millis) throws SocketException {
        socket.setSoTimeout(millis);
    }

    void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException ignored) {
            // the tunnel is ending anyway
        }
    }

    /** The buffered reader kept with the link across pooled reuses. */
    WireReader reader(int bufferBytes) {
        if (reader == null) {
            reader = new WireReader(in, bufferBytes, false);
        }
        return reader;
    }

    WireWriter writer(int bufferBytes) {
        if (writer == null) {
            writer = new WireWriter(out, bufferBytes, false);
        }
        return writer;
    }
}
