package dev.proxypool.server.gateway;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads HTTP lines with a hard length cap from the bytes of a message head as they have arrived (the
 * event loop hands it what it holds; running out of bytes is "not whole yet"). It scans for LF inside
 * its buffer and caps a line before it is buffered whole. Not thread-safe.
 */
final class WireReader {

    /** A line exceeded its cap; the caller maps it to 400/431 (client) or 502 (upstream). */
    static final class LineTooLongException extends IOException {
        LineTooLongException() {
            super("line too long", null);
        }
    }

    private final InputStream in;
    private final boolean client;
    private final byte[] buf;
    private int pos;
    private int lim;
    private byte[] spill = new byte[0];

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
        try {
            n = in.read(buf, lim, buf.length - lim);
        } catch (IOException e) {
            throw PeerIOException.wrap(client, e);
        }
        if (n < 0) {
            return false;
        }
        lim += n;
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

    /** The stream ended where more bytes were required; attributed to this reader's side. */
    PeerIOException unexpectedEnd(String what) {
        return PeerIOException.wrap(client, new EOFException(what));
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
