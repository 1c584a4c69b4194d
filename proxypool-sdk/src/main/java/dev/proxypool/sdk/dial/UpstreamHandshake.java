package dev.proxypool.sdk.dial;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.credentials.Credentials;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The handshake that opens a tunnel through an upstream proxy, as a codec without I/O: the caller
 * moves the bytes, this class decides what they mean. One instance per dial, not thread-safe.
 *
 * <ul>
 *   <li>{@code http}, {@code https}: {@code CONNECT host:port} with Basic
 *       {@code Proxy-Authorization} when credentials are given (the TLS of an HTTPS proxy is the
 *       caller's, below this codec); 1xx interim replies are skipped (at most 4);</li>
 *   <li>{@code socks4}: SOCKS4, or SOCKS4a for a host name; the username goes as USERID;</li>
 *   <li>{@code socks5}: RFC 1928, with RFC 1929 username/password when credentials are given.</li>
 * </ul>
 *
 * <p>Use: write {@link #output()} to the proxy; feed every byte read from it to
 * {@link #input(ByteBuffer)}; write {@link #output()} again after each input (SOCKS5 answers the
 * method choice with the next message); repeat until {@code input} returns true. Bytes left in the
 * buffer after that are the tunnel's first bytes (a target that speaks first). A caller that must
 * not read a byte of the tunnel (it hands the socket over with nothing consumed) reads at most
 * {@link #wanted()} bytes at a time; only an HTTP reply head ended by bare line feeds can then be
 * followed by tunnel bytes in the same read.
 *
 * <p>Every refusal and protocol error is a {@link HandshakeRejected} classified by
 * {@link Failures}, the one table of who is blamed. Timeouts, resets and the proxy closing
 * mid-handshake are the caller's to classify ({@link Failures#classify}). Bounded: a reply head
 * longer than {@link #MAX_HTTP_HEAD} bytes is a protocol error, SOCKS replies have fixed sizes.
 *
 * <p>The request may carry the proxy's credentials ({@code Proxy-Authorization}, the RFC 1929
 * message): a caller zeroes the arrays {@link #output()} returns once written, if it cares.
 */
public final class UpstreamHandshake {

    /** The longest HTTP reply head accepted, blank line included. */
    public static final int MAX_HTTP_HEAD = 16 * 1024;

    /** The longest SOCKS username and (SOCKS5) password, in UTF-8 bytes. */
    public static final int MAX_SOCKS_FIELD = 255;

    private static final byte[] EMPTY = new byte[0];

    /** One protocol's side of the handshake. */
    interface Phase {
        /**
         * The first message.
         *
         * @return its bytes
         */
        byte[] start();

        /**
         * Consumes the bytes of {@code in} that belong to the handshake, queues messages on
         * {@code out}. Returns true once the tunnel is open, false only with {@code in} drained.
         */
        boolean input(ByteBuffer in, UpstreamHandshake out) throws HandshakeRejected;

        /** The most bytes that surely belong to the handshake (at least 1 before it is open). */
        int wanted();
    }

    private final Phase phase;
    private byte[] pending;
    private boolean open;
    private boolean failed;

    private UpstreamHandshake(Phase phase) {
        this.phase = phase;
        this.pending = phase.start();
    }

    /**
     * The handshake that opens a tunnel to {@code target} through a proxy of this protocol
     * (HTTP/HTTPS: {@code CONNECT}; SOCKS4/4a; SOCKS5 with RFC 1929 authentication).
     *
     * @param protocol    the proxy's protocol
     * @param target      where the tunnel goes
     * @param credentials the proxy's credentials, or null
     * @return a handshake whose {@link #output()} holds the first request
     * @throws IllegalArgumentException for an IPv6 target through SOCKS4, or SOCKS credentials that
     *                                  do not fit ({@link #credentialsFit})
     */
    public static UpstreamHandshake tunnel(Protocol protocol, Target target, Credentials credentials) {
        Objects.requireNonNull(target, "target");
        if (credentials != null && !credentialsFit(protocol, credentials)) {
            throw new IllegalArgumentException("the credentials exceed " + MAX_SOCKS_FIELD + " bytes, the SOCKS limit");
        }
        Phase p = switch (Objects.requireNonNull(protocol, "protocol")) {
            case HTTP, HTTPS -> new HttpConnect(target, credentials);
            case SOCKS4 -> {
                if (!Socks4.supports(target)) {
                    throw new IllegalArgumentException("a socks4 proxy cannot reach an IPv6 target");
                }
                yield new Socks4(target, credentials);
            }
            case SOCKS5 -> new Socks5(target, credentials);
        };
        return new UpstreamHandshake(p);
    }

    /**
     * Whether the credentials fit the protocol's fields: a SOCKS username, and a SOCKS5 password,
     * of at most {@link #MAX_SOCKS_FIELD} UTF-8 bytes. Always true for HTTP(S).
     *
     * @param protocol    the proxy's protocol
     * @param credentials the proxy's credentials
     * @return false when the handshake could not carry them
     */
    public static boolean credentialsFit(Protocol protocol, Credentials credentials) {
        return switch (protocol) {
            case HTTP, HTTPS -> true;
            case SOCKS4 -> utf8(credentials.username()) <= MAX_SOCKS_FIELD;
            case SOCKS5 ->
                utf8(credentials.username()) <= MAX_SOCKS_FIELD
                        && utf8(credentials.password().reveal()) <= MAX_SOCKS_FIELD;
        };
    }

    /**
     * Bytes to write to the proxy now: the first request at the start, the next message after a
     * reply that calls for one; an empty array when there is nothing to write. Drains them.
     *
     * @return the bytes, owned by the caller
     */
    public byte[] output() {
        byte[] b = pending;
        pending = EMPTY;
        return b;
    }

    /**
     * Bytes read from the proxy. Consumes exactly what belongs to the handshake (advances
     * {@code in}'s position) and leaves any bytes after the final reply in the buffer: the tunnel's
     * first bytes. After true, further calls consume nothing and return true.
     *
     * @param in bytes from the proxy, between its position and limit
     * @return true once the tunnel is open; false when more bytes are needed (then {@code in} is
     *         drained)
     * @throws HandshakeRejected     the proxy refused the tunnel or broke the protocol (an over-long
     *                               reply head is a {@link dev.proxypool.core.health.FailureKind#PROTOCOL_ERROR})
     * @throws IllegalStateException after a rejection
     */
    public boolean input(ByteBuffer in) throws HandshakeRejected {
        if (open) {
            return true;
        }
        if (failed) {
            throw new IllegalStateException("the handshake was already rejected");
        }
        try {
            open = phase.input(in, this);
        } catch (HandshakeRejected e) {
            failed = true;
            pending = EMPTY;
            throw e;
        }
        return open;
    }

    /**
     * Whether the tunnel is open.
     *
     * @return true after {@link #input} returned true
     */
    public boolean open() {
        return open;
    }

    /**
     * The most bytes the next read may take without taking a byte of the tunnel (for HTTP, unless
     * the head ends with bare line feeds): for a caller that hands the connection over with nothing
     * of the tunnel consumed. A caller that keeps what follows the reply reads as much as it likes.
     *
     * @return at least 1 before the tunnel is open, 0 after
     */
    public int wanted() {
        return open || failed ? 0 : Math.max(1, phase.wanted());
    }

    /** Queues a message after the pending ones. */
    void send(byte[] message) {
        if (pending.length == 0) {
            pending = message;
            return;
        }
        byte[] joined = Arrays.copyOf(pending, pending.length + message.length);
        System.arraycopy(message, 0, joined, pending.length, message.length);
        Arrays.fill(pending, (byte) 0);
        Arrays.fill(message, (byte) 0);
        pending = joined;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A fixed-size message read in pieces. */
    static final class Fixed {
        private byte[] bytes = EMPTY;
        private int filled;

        /** Starts a message of {@code size} bytes. */
        void expect(int size) {
            bytes = new byte[size];
            filled = 0;
        }

        /** Takes what is missing from {@code in}; true when the message is complete. */
        boolean fill(ByteBuffer in) {
            int n = Math.min(in.remaining(), bytes.length - filled);
            in.get(bytes, filled, n);
            filled += n;
            return filled == bytes.length;
        }

        int missing() {
            return bytes.length - filled;
        }

        int at(int i) {
            return bytes[i] & 0xFF;
        }
    }
}
