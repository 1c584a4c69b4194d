package dev.proxypool.server.gateway;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Stages outgoing bytes so a response head and a small body leave in one write, and lets large
 * body slices go straight to the socket. The relay flushes before it blocks on a read, so nothing
 * staged ever waits on the other side. One writer per stream, not thread-safe.
 */
final class WireWriter {

    private final OutputStream out;
    private final boolean client;
    private final byte[] buf;
    private int n;
    private long written;

    /** @param client which side {@code out} writes to: failures become {@link PeerIOException}s of that side */
    WireWriter(OutputStream out, int bufferSize, boolean client) {
        this(out, new byte[bufferSize], client);
    }

    /** Over a given (possibly recycled) buffer: only the staged bytes are ever written. */
    WireWriter(OutputStream out, byte[] buffer, boolean client) {
        this.out = out;
        this.client = client;
        this.buf = buffer;
    }

    /** The buffer, for a tunnel to relay through once flushed, and to recycle. */
    byte[] buffer() {
        return buf;
    }

    void write(byte[] b, int off, int len) throws IOException {
        if (len >= buf.length) {
            flush();
            writeOut(b, off, len);
            return;
        }
        if (len > buf.length - n) {
            flush();
        }
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    void writeByte(int b) throws IOException {
        if (n == buf.length) {
            flush();
        }
        buf[n++] = (byte) b;
    }

    /**
     * Writes ISO-8859-1 text (header names and values are octets on the wire): each char's low 8
     * bits, copied by the JDK's bulk Latin-1 copy (an array copy for the compact strings header
     * text always is) rather than char by char.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exactly the low-8-bit copy wanted
    void writeAscii(String s) throws IOException {
        int len = s.length();
        int i = 0;
        while (i < len) {
            if (n == buf.length) {
                flush();
            }
            int end = Math.min(len, i + buf.length - n);
            s.getBytes(i, end, buf, n);
            n += end - i;
            i = end;
        }
    }

    void crlf() throws IOException {
        writeByte('\r');
        writeByte('\n');
    }

    void header(String name, String value) throws IOException {
        writeAscii(name);
        writeByte(':');
        writeByte(' ');
        writeAscii(value);
        crlf();
    }

    void flush() throws IOException {
        if (n > 0) {
            int len = n;
            n = 0;
            writeOut(buf, 0, len);
        }
    }

    private void writeOut(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
            written += len;
        } catch (IOException e) {
            throw PeerIOException.wrap(client, e);
        }
    }

    /** Drops staged bytes (a failed attempt whose head must not reach the client). */
    void discard() {
        n = 0;
    }

    /** Bytes handed to the stream so far (staged bytes not included). */
    long written() {
        return written;
    }

    int staged() {
        return n;
    }
}
