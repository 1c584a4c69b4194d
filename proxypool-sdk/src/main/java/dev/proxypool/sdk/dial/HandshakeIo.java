package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.time.Ticker;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/**
 * Blocking reads and writes of a proxy handshake under one deadline. In exact mode reads never
 * take a byte past the handshake's last one, so the socket is handed over with nothing of the
 * tunnel consumed. In buffered mode {@link #readHttpHead()} reads whatever has arrived, in as few
 * reads as the peer's segments allow, and keeps the bytes past the head in {@link #early()} for the
 * caller to serve before the socket's own stream.
 */
final class HandshakeIo {

    static final int MAX_HTTP_HEAD = 16 * 1024;
    private static final byte[] CRLFCRLF = {'\r', '\n', '\r', '\n'};
    private static final byte[] HTTP = {'H', 'T', 'T', 'P', '/'};

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Ticker ticker;
    private final long deadline;
    private final boolean buffered;
    /** Whether reads get the time left as their socket timeout; false: a sweeper keeps the deadline. */
    private final boolean timed;

    private byte[] early = EMPTY;
    private static final byte[] EMPTY = new byte[0];

    HandshakeIo(Socket socket, Ticker ticker, long deadline) throws IOException {
        this(socket, ticker, deadline, false);
    }

    /** @param buffered read HTTP heads in large reads and keep what follows them ({@link #early()}) */
    HandshakeIo(Socket socket, Ticker ticker, long deadline, boolean buffered) throws IOException {
        this(socket, ticker, deadline, buffered, true);
    }

    /**
     * @param timed false when the deadline is kept by a {@link DeadlineSweeper} that closes the socket: reads
     *              then have no socket timeout (a spent deadline still fails the next read at once)
     */
    HandshakeIo(Socket socket, Ticker ticker, long deadline, boolean buffered, boolean timed) throws IOException {
        this.timed = timed;
        this.buffered = buffered;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.ticker = ticker;
        this.deadline = deadline;
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    int readByte() throws IOException {
        arm();
        int b = in.read();
        if (b < 0) {
            throw new EOFException("the proxy closed the connection mid-handshake");
        }
        return b;
    }

    byte[] readExactly(int n) throws IOException {
        byte[] b = new byte[n];
        int off = 0;
        while (off < n) {
            arm();
            int r = in.read(b, off, n - off);
            if (r < 0) {
                throw new EOFException("the proxy closed the connection mid-handshake");
            }
            off += r;
        }
        return b;
    }

    /**
     * Reads an HTTP response head through its blank line. Each read asks for at most the bytes
     * that could still belong to the head ({@code 4 - k} after a partial {@code CRLFCRLF} of
     * length {@code k}), so about one read per 4 bytes and never a byte of the tunnel. A proxy that
     * ends its head with bare LFs could make a read overshoot; that is detected and refused.
     */
    byte[] readHttpHead() throws IOException {
        return buffered ? readHttpHeadBuffered() : readHttpHeadExact();
    }

    /** Bytes read past the last HTTP head in buffered mode (the first bytes of the tunnel); empty otherwise. */
    byte[] early() {
        return early;
    }

    /**
     * Reads an HTTP response head with reads as large as the buffer: one read for a typical
     * {@code 200 Connection established}. Bytes after the blank line are the tunnel's: they are
     * kept in {@link #early()}, in front of anything a following head read takes.
     */
    private byte[] readHttpHeadBuffered() throws IOException {
        byte[] buf = new byte[Math.max(512, early.length)];
        int len = early.length;
        System.arraycopy(early, 0, buf, 0, len);
        early = EMPTY;
        int from = 0;
        while (true) {
            for (int i = 0; i < Math.min(len, HTTP.length); i++) {
                if (buf[i] != HTTP[i]) { // fail fast: a banner or binary reply may never send a blank line
                    throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not HTTP");
                }
            }
            int end = headEnd(buf, from, len);
            if (end >= 0) {
                if (end > MAX_HTTP_HEAD) {
                    break;
                }
                early = end == len ? EMPTY : Arrays.copyOfRange(buf, end, len);
                return Arrays.copyOf(buf, end);
            }
            if (len >= MAX_HTTP_HEAD) {
                break;
            }
            if (len == buf.length) {
                buf = Arrays.copyOf(buf, Math.min(buf.length * 2, MAX_HTTP_HEAD + 4));
            }
            arm();
            int r = in.read(buf, len, buf.length - len);
            if (r < 0) {
                throw new EOFException("the proxy closed the connection mid-handshake");
            }
            from = Math.max(0, len - 3);
            len += r;
        }
        throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "reply head longer than " + MAX_HTTP_HEAD + " bytes");
    }

    private byte[] readHttpHeadExact() throws IOException {
        byte[] buf = new byte[256];
        int len = 0;
        while (true) {
            int need = CRLFCRLF.length - partialMatch(buf, len);
            if (len + need > MAX_HTTP_HEAD) {
                throw new HandshakeRejected(
                        FailureKind.PROTOCOL_ERROR, "reply head longer than " + MAX_HTTP_HEAD + " bytes");
            }
            if (len + need > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + need));
            }
            arm();
            int r = in.read(buf, len, need);
            if (r < 0) {
                throw new EOFException("the proxy closed the connection mid-handshake");
            }
            int from = Math.max(0, len - 3);
            len += r;
            for (int i = 0; i < Math.min(len, HTTP.length); i++) {
                if (buf[i] != HTTP[i]) { // fail fast: a banner or binary reply may never send a blank line
                    throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not HTTP");
                }
            }
            int end = headEnd(buf, from, len);
            if (end >= 0) {
                if (end != len) {
                    throw new HandshakeRejected(
                            FailureKind.PROTOCOL_ERROR,
                            "reply head ended with bare line feeds and tunnel bytes followed it at once");
                }
                return Arrays.copyOf(buf, len);
            }
        }
    }

    /** The length of the longest suffix of {@code buf[0..len)} that is a prefix of CRLFCRLF. */
    private static int partialMatch(byte[] buf, int len) {
        for (int k = Math.min(3, len); k > 0; k--) {
            boolean match = true;
            for (int i = 0; i < k && match; i++) {
                match = buf[len - k + i] == CRLFCRLF[i];
            }
            if (match) {
                return k;
            }
        }
        return 0;
    }

    /** The offset just after the first blank line (CRLFCRLF or LFLF) found from {@code from}; -1 if none. */
    private static int headEnd(byte[] buf, int from, int len) {
        for (int i = from; i < len; i++) {
            if (buf[i] != '\n') {
                continue;
            }
            if (i + 1 < len && buf[i + 1] == '\n') {
                return i + 2;
            }
            if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
                return i + 3;
            }
        }
        return -1;
    }

    /** Sets the read timeout to the time left; a spent deadline is a timeout. */
    private void arm() throws IOException {
        long left = deadline - ticker.read();
        if (left <= 0) {
            throw new SocketTimeoutException("handshake deadline passed");
        }
        if (!timed) {
            return;
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
    }
}
