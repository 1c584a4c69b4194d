package dev.proxypool.server.gateway;

import java.io.EOFException;
import java.io.IOException;

/**
 * Streams a message body from one side to the other with its framing intact, through the two
 * connection buffers only: a body of any size is never held whole. Chunked bodies are relayed
 * chunk by chunk (size lines, data, trailers) or de-chunked for an HTTP/1.0 client.
 */
final class BodyRelay {

    private static final int MAX_CHUNK_LINE = 4096;

    private BodyRelay() {}

    /** Relays a body of the given {@link Framing}. */
    static void relay(WireReader src, WireWriter dst, long framing, boolean dechunk, int maxTrailerBytes)
            throws IOException {
        if (framing > 0) {
            copyLength(src, dst, framing);
        } else if (framing == Framing.CHUNKED) {
            copyChunked(src, dst, dechunk, maxTrailerBytes);
        } else if (framing == Framing.UNTIL_CLOSE) {
            while (src.transferTo(dst, Long.MAX_VALUE) >= 0) {
                // relayed
            }
        }
    }

    static void copyLength(WireReader src, WireWriter dst, long len) throws IOException {
        long left = len;
        while (left > 0) {
            int n = src.transferTo(dst, left);
            if (n < 0) {
                throw src.unexpectedEnd("stream ended inside a body, " + left + " bytes missing");
            }
            left -= n;
        }
    }

    static void copyChunked(WireReader src, WireWriter dst, boolean dechunk, int maxTrailerBytes) throws IOException {
        while (true) {
            String line = line(src, MAX_CHUNK_LINE);
            long size = chunkSize(line);
            if (size < 0) {
                throw src.protocolError("bad chunk size line");
            }
            if (!dechunk) {
                dst.writeAscii(line);
                dst.crlf();
            }
            if (size == 0) {
                copyTrailers(src, dst, dechunk, maxTrailerBytes);
                return;
            }
            copyLength(src, dst, size);
            if (!line(src, 2).isEmpty()) {
                throw src.protocolError("chunk data not followed by CRLF");
            }
            if (!dechunk) {
                dst.crlf();
            }
        }
    }

    private static void copyTrailers(WireReader src, WireWriter dst, boolean dechunk, int maxBytes) throws IOException {
        int total = 0;
        while (true) {
            String t = line(src, maxBytes - total + 2);
            if (t.isEmpty()) {
                if (!dechunk) {
                    dst.crlf();
                }
                return;
            }
            total += t.length() + 2;
            if (total > maxBytes || t.indexOf(':') <= 0 || !Tokens.isFieldValue(t)) {
                throw src.protocolError("bad chunked trailer");
            }
            if (!dechunk) { // trailers of a de-chunked body are dropped: HTTP/1.0 has no place for them
                dst.writeAscii(t);
                dst.crlf();
            }
        }
    }

    private static String line(WireReader src, int max) throws IOException {
        String line;
        try {
            line = src.readLine(max);
        } catch (WireReader.LineTooLongException e) {
            throw src.protocolError("chunk framing line too long");
        } catch (EOFException e) {
            throw src.unexpectedEnd("stream ended inside chunk framing");
        }
        if (line == null) {
            throw src.unexpectedEnd("stream ended inside chunk framing");
        }
        return line;
    }

    /**
     * Hex size before an optional {@code ;extension}; -1 when malformed or above 2^60, or when the line
     * holds a control character (a bare CR, which the line reader leaves in place: RFC 9112 §2.2 lets a
     * recipient treat it as a line end, so a next hop could frame the body differently than we do).
     */
    static long chunkSize(String line) {
        if (!Tokens.isFieldValue(line)) {
            return -1;
        }
        int end = line.indexOf(';');
        if (end < 0) {
            end = line.length();
        }
        while (end > 0 && Tokens.isOws(line.charAt(end - 1))) {
            end--;
        }
        if (end == 0 || end > 15) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < end; i++) {
            int d = Character.digit(line.charAt(i), 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }
}
