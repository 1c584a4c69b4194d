package dev.proxypool.core.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the lines of an HTTP/1 message head with a hard cap per line, from one of two sources:
 *
 * <ul>
 *   <li>{@link #over(byte[], int, int)}: the bytes that have arrived so far (an event loop's
 *       collected input). The end of the window is the end of input: a line cut off by it is
 *       {@link Incomplete} ("not whole yet": parse again when more bytes arrived); {@link
 *       #consumed()} tells how many bytes the head took. Nothing is copied but each line's text.
 *   <li>{@link #over(InputStream)}: a blocking stream, read one byte at a time so not a byte past
 *       the head is taken (the caller reads the body from the same stream; give it a buffered
 *       stream). The stream ending inside a line is {@link Incomplete} too.
 * </ul>
 *
 * <p>A line ends at LF; a CR before it is dropped; the text is ISO-8859-1. A line is capped before
 * it is buffered whole. Not thread-safe.
 */
public final class HeadReader {

    /** The input ended inside a line: with a window, "not whole yet". Carries no stack trace. */
    public static final class Incomplete extends EOFException {
        Incomplete(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** A line exceeded its cap; {@link Http1Parser} maps it to the kind of the line. */
    static final class LineTooLong extends IOException {
        static final LineTooLong INSTANCE = new LineTooLong();

        private LineTooLong() {
            super("line too long", null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private final InputStream in;
    private byte[] buf;
    private final int start;
    private int pos;
    private final int lim;

    private HeadReader(InputStream in, byte[] buf, int off, int len) {
        this.in = in;
        this.buf = buf;
        this.start = off;
        this.pos = off;
        this.lim = off + len;
    }

    /**
     * A reader over the {@code len} bytes of {@code b} from {@code off} (not copied; the caller
     * keeps them unchanged while it reads).
     */
    public static HeadReader over(byte[] b, int off, int len) {
        if (off < 0 || len < 0 || off + len > b.length) {
            throw new IndexOutOfBoundsException("window outside the array");
        }
        return new HeadReader(null, b, off, len);
    }

    /** A reader of a blocking stream that takes exactly the bytes of the lines it returns. */
    public static HeadReader over(InputStream in) {
        return new HeadReader(in, new byte[128], 0, 0);
    }

    /** Window: the bytes taken by the lines read so far. Stream: the bytes read so far. */
    public int consumed() {
        return in == null ? pos - start : pos;
    }

    /**
     * Reads one line of the message's framing outside the head (a chunk-size line, a trailer
     * field), the same way the head's lines are read.
     *
     * @param max the cap on the line's length including CRLF
     * @return the line, or {@code null} at the end of input before any byte
     * @throws HeadException ({@link HeadException.Kind#LINE_TOO_LONG}) past the cap
     * @throws Incomplete    when the input ends inside the line
     */
    public String nextLine(int max) throws IOException {
        try {
            return readLine(max);
        } catch (LineTooLong e) {
            throw new HeadException(HeadException.Kind.LINE_TOO_LONG, "line longer than " + max + " bytes");
        }
    }

    /**
     * Reads one line ending in LF (a CR before it is dropped).
     *
     * @param max the cap on the line's length including CRLF
     * @return the line as ISO-8859-1 text, or {@code null} at the end of input before any byte
     * @throws Incomplete when the input ends inside a line
     * @throws IOException the stream's failure, or (package-private) the line being too long
     */
    String readLine(int max) throws IOException {
        return in == null ? windowLine(max) : streamLine(max);
    }

    private String windowLine(int max) throws IOException {
        byte[] b = buf;
        int from = pos;
        int to = lim;
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                int len = i - from + 1;
                if (len > max) {
                    throw LineTooLong.INSTANCE;
                }
                pos = i + 1;
                return text(b, from, len);
            }
        }
        int pending = to - from;
        if (pending >= max) {
            throw LineTooLong.INSTANCE;
        }
        if (pending == 0) {
            return null;
        }
        throw new Incomplete("stream ended inside a line");
    }

    private String streamLine(int max) throws IOException {
        int n = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (n == 0) {
                    return null;
                }
                throw new Incomplete("stream ended inside a line");
            }
            pos++;
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, n * 2);
            }
            buf[n++] = (byte) c;
            if (c == '\n') {
                return text(buf, 0, n);
            }
            if (n >= max) {
                throw LineTooLong.INSTANCE;
            }
        }
    }

    private static String text(byte[] b, int off, int lenWithLf) {
        int len = lenWithLf - 1;
        if (len > 0 && b[off + len - 1] == '\r') {
            len--;
        }
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }
}
