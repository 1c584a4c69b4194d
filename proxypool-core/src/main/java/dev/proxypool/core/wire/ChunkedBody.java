package dev.proxypool.core.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads an HTTP/1 chunked body (RFC 9112 section 7.1) from a blocking stream, for the blocking
 * readers: the validator, the CLI's benchmark client and the test kit. (The gateway frames bodies
 * on its event loops with its own incremental framer.) Its lines are read as a head's are, with
 * {@link HeadReader}, one byte at a time, so nothing past the body's last line is taken.
 *
 * <p>A chunk size is 1 to 15 hex digits, optionally followed by extensions after {@code ;} (ignored);
 * whitespace around it is tolerated. Each chunk's data must be followed by CRLF. The trailer section
 * (up to {@code maxTrailers} fields) ends at an empty line.
 *
 * <p>Failures: a {@link HeadException} of kind {@link HeadException.Kind#MALFORMED_CHUNK_SIZE},
 * {@link HeadException.Kind#CHUNK_NOT_TERMINATED}, {@link HeadException.Kind#BODY_TOO_LARGE},
 * {@link HeadException.Kind#TOO_MANY_FIELDS} (trailers) or {@link HeadException.Kind#LINE_TOO_LONG};
 * {@link HeadReader.Incomplete} when the stream ends inside a line, an {@link EOFException} when it
 * ends inside a chunk's data.
 */
public final class ChunkedBody {

    private static final int MAX_SIZE_DIGITS = 15; // 16 hex digits may not fit a long

    private ChunkedBody() {}

    /**
     * Copies the body's data to {@code out} (its framing is dropped).
     *
     * @param in          the stream, positioned after the head
     * @param out         where the data goes ({@link OutputStream#nullOutputStream()} to skip it)
     * @param limit       the most data bytes accepted
     * @param maxLine     the longest chunk-size or trailer line, in bytes
     * @param maxTrailers the most trailer fields
     * @return the number of data bytes
     * @throws IOException as described in the class comment, or what {@code in} or {@code out} threw
     */
    public static long copyData(InputStream in, OutputStream out, long limit, int maxLine, int maxTrailers)
            throws IOException {
        return copy(in, out, limit, maxLine, maxTrailers, false);
    }

    /**
     * Copies the body to {@code out} as it was framed: size lines, data, CRLFs, trailers and the
     * final empty line (lines end in CRLF whatever ended them on the wire). For a relay.
     *
     * @param in          the stream, positioned after the head
     * @param out         where the framed body goes
     * @param maxLine     the longest chunk-size or trailer line, in bytes
     * @param maxTrailers the most trailer fields
     * @return the number of data bytes
     * @throws IOException as described in the class comment, or what {@code in} or {@code out} threw
     */
    public static long copyFramed(InputStream in, OutputStream out, int maxLine, int maxTrailers) throws IOException {
        return copy(in, out, Long.MAX_VALUE, maxLine, maxTrailers, true);
    }

    private static long copy(InputStream in, OutputStream out, long limit, int maxLine, int maxTrailers, boolean framed)
            throws IOException {
        HeadReader lines = HeadReader.over(in);
        byte[] buf = new byte[8192];
        long total = 0;
        while (true) {
            String sizeLine = line(lines, maxLine);
            long size = size(sizeLine);
            if (framed) {
                writeLine(out, sizeLine);
            }
            if (size == 0) {
                for (int fields = 0; ; fields++) {
                    String trailer = line(lines, maxLine);
                    if (framed) {
                        writeLine(out, trailer);
                    }
                    if (trailer.isEmpty()) {
                        return total;
                    }
                    if (fields == maxTrailers) {
                        throw new HeadException(
                                HeadException.Kind.TOO_MANY_FIELDS, "more than " + maxTrailers + " trailer fields");
                    }
                }
            }
            if (size > limit - total) {
                throw new HeadException(
                        HeadException.Kind.BODY_TOO_LARGE, "the body is larger than " + limit + " bytes");
            }
            for (long left = size; left > 0; ) {
                int r = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (r < 0) {
                    throw new EOFException("the connection ended inside a chunk");
                }
                out.write(buf, 0, r);
                left -= r;
            }
            total += size;
            if (!line(lines, maxLine).isEmpty()) {
                throw new HeadException(HeadException.Kind.CHUNK_NOT_TERMINATED, "a chunk is not followed by CRLF");
            }
            if (framed) {
                writeLine(out, "");
            }
        }
    }

    private static String line(HeadReader lines, int maxLine) throws IOException {
        String line = lines.nextLine(maxLine);
        if (line == null) {
            throw new HeadReader.Incomplete("the connection ended inside the chunked framing");
        }
        return line;
    }

    /** The size of a chunk-size line ({@code 1a;name=value}), or a MALFORMED_CHUNK_SIZE failure. */
    static long size(String line) throws HeadException {
        int semi = line.indexOf(';');
        String hex = (semi >= 0 ? line.substring(0, semi) : line).trim();
        if (hex.isEmpty() || hex.length() > MAX_SIZE_DIGITS) {
            throw malformedSize();
        }
        long size = 0;
        for (int i = 0; i < hex.length(); i++) {
            int d = Character.digit(hex.charAt(i), 16);
            if (d < 0) {
                throw malformedSize();
            }
            size = size << 4 | d;
        }
        return size;
    }

    private static HeadException malformedSize() {
        return new HeadException(HeadException.Kind.MALFORMED_CHUNK_SIZE, "a malformed chunk size");
    }

    private static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }
}
