package dev.proxypool.cli.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough HTTP/1.1 response reading for the gateway bench: the head (status and header fields,
 * first value of each name, names lower-cased) and skipping the body by its framing
 * (Content-Length, chunked, or until close). Bounded line length and field count.
 */
public final class Http1 {

    static final int MAX_LINE = 16 * 1024;
    static final int MAX_FIELDS = 200;

    private Http1() {}

    /** A response head. */
    public record Head(int status, Map<String, String> fields) {

        public String field(String lowerCaseName) {
            return fields.get(lowerCaseName);
        }

        public boolean closes() {
            String c = field("connection");
            return c != null && c.toLowerCase(Locale.ROOT).contains("close");
        }
    }

    public static Head readHead(InputStream in) throws IOException {
        String status = readLine(in);
        if (!status.startsWith("HTTP/1.")) {
            throw new ProtocolException("not an HTTP/1 response");
        }
        int sp = status.indexOf(' ');
        int code;
        try {
            code = Integer.parseInt(status.substring(sp + 1, Math.min(status.length(), sp + 4)));
        } catch (RuntimeException e) {
            throw new ProtocolException("bad status line");
        }
        Map<String, String> fields = new HashMap<>();
        for (int n = 0; ; n++) {
            String line = readLine(in);
            if (line.isEmpty()) {
                break;
            }
            if (n == MAX_FIELDS) {
                throw new ProtocolException("more than " + MAX_FIELDS + " header fields");
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.putIfAbsent(
                        line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        line.substring(colon + 1).strip());
            }
        }
        return new Head(code, fields);
    }

    /**
     * Reads and discards the body of a response to a non-HEAD request.
     *
     * @return false when the body ran until close, so the connection cannot be reused
     */
    public static boolean skipBody(Head head, InputStream in) throws IOException {
        int s = head.status();
        if (s / 100 == 1 || s == 204 || s == 304) {
            return true;
        }
        String te = head.field("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            skipChunked(in);
            return true;
        }
        String cl = head.field("content-length");
        if (cl != null) {
            long n;
            try {
                n = Long.parseLong(cl);
            } catch (NumberFormatException e) {
                throw new ProtocolException("bad Content-Length");
            }
            skipExactly(in, n);
            return true;
        }
        in.transferTo(OutputSink.INSTANCE);
        return false;
    }

    private static void skipChunked(InputStream in) throws IOException {
        while (true) {
            String line = readLine(in);
            int semi = line.indexOf(';');
            long size;
            try {
                size = Long.parseLong((semi < 0 ? line : line.substring(0, semi)).strip(), 16);
            } catch (NumberFormatException e) {
                throw new ProtocolException("bad chunk size");
            }
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailer fields
                }
                return;
            }
            skipExactly(in, size);
            if (!readLine(in).isEmpty()) {
                throw new ProtocolException("chunk not followed by CRLF");
            }
        }
    }

    private static void skipExactly(InputStream in, long n) throws IOException {
        long left = n;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("connection closed mid-body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    public static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed");
            }
            if (c == '\n') {
                int len = sb.length();
                if (len > 0 && sb.charAt(len - 1) == '\r') {
                    sb.setLength(len - 1);
                }
                return sb.toString();
            }
            if (sb.length() == MAX_LINE) {
                throw new ProtocolException("line longer than " + MAX_LINE + " bytes");
            }
            sb.append((char) c);
        }
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Not HTTP as expected. */
    public static final class ProtocolException extends IOException {
        public ProtocolException(String message) {
            super(message);
        }
    }

    /** Discards bytes. */
    private static final class OutputSink extends OutputStream {
        static final OutputSink INSTANCE = new OutputSink();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }
}
