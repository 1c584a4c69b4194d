package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A buffered reader over one blocking stream that reads HTTP lines with a hard length cap and
 * hands body bytes on without copying them twice.
 *
 * <p>Why not {@code BufferedInputStream}: we need to scan for LF inside the buffer (no per-byte
 * {@code read()} calls through a synchronized stream), cap a line before it is buffered whole, and
 * give the relay direct access to the buffered bytes. One reader per connection, not thread-safe.
 */
final class WireReader {

    /** A line exceeded its cap; the caller maps it to 400/431 (client) or 502 (upstream). */
    static final class LineTooLongException extends IOException {
        LineTooLongException() {
            super("line too long", null);
        }
    }

    /** The request head did not arrive whole before its deadline; the connection answers 408. */
    static final class HeadTimeoutException extends IOException {
        HeadTimeoutException() {
            super("request head deadline passed", null);
        }
    }

    private final InputStream in;
    private final boolean client;
    private Ticker deadlineTicker;
    private IntConsumer deadlineTimeout;
    private long deadline;
    private final byte[] buf;
    private int pos;
    private int lim;
    private byte[] spill = new byte[0];
    /** Bytes read from the stream through this reader (buffered or handed straight on). */
    private long received;

    /** @param client which side {@code in} reads from: failures become {@link PeerIOException}s of that side */
    WireReader(InputStream in, int bufferSize, boolean client) {
        this(in, new byte[bufferSize], client);
    }

    /** Over a given (possibly recycled) buffer: only bytes this reader fills are ever read. */
    WireReader(InputStream in, byte[] buffer, boolean client) {
        this.in = in;
        this.client = client;
        this.buf = buffer;
    }

    /** The buffer, for a tunnel to relay through once the reader is drained, and to recycle. */
    byte[] buffer() {
        return buf;
    }

    /**
     * Bounds every following {@link #fill()} by an absolute deadline: each blocking read gets the
     * time left as its timeout, and a read after the deadline, or one that times out, throws
     * {@link HeadTimeoutException}. Used while a request head is read.
     *
     * @param readTimeout sets the underlying read timeout in milliseconds
     */
    void deadline(Ticker ticker, long deadlineNanos, IntConsumer readTimeout) {
        this.deadlineTicker = ticker;
        this.deadline = deadlineNanos;
        this.deadlineTimeout = readTimeout;
    }

    /** Ends the bound set by {@link #deadline}. */
    void clearDeadline() {
        deadlineTicker = null;
        deadlineTimeout = null;
    }

    /** Bytes already buffered and not yet consumed. */
    int buffered() {
        return lim - pos;
    }

    /**
     * Reads more bytes into the buffer (blocking until at least one arrives).
     *
     * @return false at end of stream
     */
    boolean fill() throws IOException {
        if (pos == lim) {
            pos = 0;
            lim = 0;
        } else if (lim == buf.length) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        int n;
        Ticker t = deadlineTicker;
        if (t != null) {
            long left = deadline - t.read();
            if (left <= 0) {
                throw new HeadTimeoutException();
            }
            deadlineTimeout.accept((int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000)));
        }
        try {
            n = in.read(buf, lim, buf.length - lim);
        } catch (SocketTimeoutException e) {
            if (t != null) {
                throw new HeadTimeoutException();
            }
            throw PeerIOException.wrap(client, e);
        } catch (IOException e) {
            throw PeerIOException.wrap(client, e);
        }
        if (n < 0) {
            return false;
        }
        lim += n;
        received += n;
        return true;
    }

    /**
     * Reads one line ending in LF (a CR before it is dropped).
     *
     * @param max the cap on the line's length including CRLF
     * @return the line as ISO-8859-1 text, or {@code null} at end of stream before any byte
     * @throws LineTooLongException when more than {@code max} bytes pass without a LF
     * @throws EOFException         when the stream ends inside a line
     */
    String readLine(int max) throws IOException {
        int spilled = 0;
        while (true) {
            int end = indexOfLf(pos, lim);
            if (end >= 0) {
                int len = end - pos + 1;
                if (spilled + len > max) {
                    throw new LineTooLongException();
                }
                String line;
                if (spilled == 0) {
                    line = text(buf, pos, len);
                } else {
                    byte[] all = ensureSpill(spilled + len);
                    System.arraycopy(buf, pos, all, spilled, len);
                    line = text(all, 0, spilled + len);
                }
                pos = end + 1;
                return line;
            }
            int pending = lim - pos;
            if (spilled + pending >= max) {
                throw new LineTooLongException();
            }
            if (pos == 0 && lim == buf.length) { // the buffer is full of one line: move it aside
                byte[] all = ensureSpill(spilled + pending);
                System.arraycopy(buf, 0, all, spilled, pending);
                spilled += pending;
                pos = 0;
                lim = 0;
            }
            if (!fill()) {
                if (spilled == 0 && lim == pos) {
                    return null;
                }
                throw unexpectedEnd("stream ended inside a line");
            }
        }
    }

    /** Reads up to {@code len} bytes: buffered ones first, else straight from the stream. */
    int read(byte[] dst, int off, int len) throws IOException {
        int avail = lim - pos;
        if (avail > 0) {
            int n = Math.min(avail, len);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            return n;
        }
        int n;
        try {
            n = in.read(dst, off, len);
        } catch (IOException e) {
            throw PeerIOException.wrap(client, e);
        }
        if (n > 0) {
            received += n;
        }
        return n;
    }

    /**
     * Bytes consumed so far: read from the stream through this reader and no longer buffered (those
     * {@link #drainTo} handed on included; what a caller reads from {@link #stream()} itself is not).
     */
    long consumed() {
        return received - (lim - pos);
    }

    /**
     * Moves up to {@code max} buffered bytes to {@code out}, filling first when empty.
     *
     * @return the bytes moved, or -1 at end of stream
     */
    int transferTo(WireWriter out, long max) throws IOException {
        if (pos == lim) {
            out.flush(); // about to block: whatever is staged must reach the peer first
            if (!fill()) {
                return -1;
            }
        }
        int n = (int) Math.min(lim - pos, max);
        out.write(buf, pos, n);
        pos += n;
        return n;
    }

    /** Writes every buffered byte to {@code out} (a tunnel's first bytes). */
    void drainTo(OutputStream out) throws IOException {
        if (lim > pos) {
            out.write(buf, pos, lim - pos);
            pos = lim;
        }
    }

    /** The stream ended where more bytes were required; attributed to this reader's side. */
    PeerIOException unexpectedEnd(String what) {
        return PeerIOException.wrap(client, new EOFException(what));
    }

    /** The peer broke the protocol mid-body; attributed to this reader's side. */
    PeerIOException protocolError(String what) {
        return PeerIOException.wrap(client, new ProtocolException(what));
    }

    /** The stream under this reader. */
    InputStream stream() {
        return in;
    }

    private int indexOfLf(int from, int to) {
        byte[] b = buf;
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private byte[] ensureSpill(int size) {
        if (spill.length < size) {
            spill = Arrays.copyOf(spill, Math.max(size, spill.length * 2));
        }
        return spill;
    }

    private static String text(byte[] b, int off, int lenWithLf) {
        int len = lenWithLf - 1;
        if (len > 0 && b[off + len - 1] == '\r') {
            len--;
        }
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }
}
