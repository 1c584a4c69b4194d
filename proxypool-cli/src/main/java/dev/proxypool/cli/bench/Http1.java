package dev.proxypool.cli.bench;

import dev.proxypool.core.wire.ChunkedBody;
import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
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
 * first value of each name, names lower-cased; read with the shared parser of {@code
 * dev.proxypool.core.wire}) and skipping the body by its framing
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

    /** Reads a response head with the shared HTTP/1 parser (lenient fields: first value of each name kept). */
    public static Head readHead(InputStream in) throws IOException {
        String status = readLine(in);
        int code;
        try {
            code = Http1Parser.statusLine(status).status();
        } catch (HeadException e) {
            throw new ProtocolException(
                    e.kind() == HeadException.Kind.NOT_HTTP && !status.startsWith("HTTP/1.")
                            ? "not an HTTP/1 response"
                            : "bad status line");
        }
        Map<String, String> fields = new HashMap<>();
        try {
            Http1Parser.fields(
                    HeadReader.over(in),
                    (name, value) -> fields.putIfAbsent(name.toLowerCase(Locale.ROOT), value),
                    MAX_LINE + 1,
                    Integer.MAX_VALUE,
                    MAX_FIELDS,
                    Http1Parser.FieldRules.LENIENT);
        } catch (HeadReader.Incomplete e) {
            throw new EOFException("connection closed");
        } catch (HeadException e) {
            throw new ProtocolException(
                    switch (e.kind()) {
                        case FIELD_LINE_TOO_LONG -> "line longer than " + MAX_LINE + " bytes";
                        case TOO_MANY_FIELDS -> "more than " + MAX_FIELDS + " header fields";
                        default -> "bad header field";
                    });
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
        in.transferTo(OutputStream.nullOutputStream());
        return false;
    }

    private static void skipChunked(InputStream in) throws IOException {
        try {
            ChunkedBody.copyData(in, OutputStream.nullOutputStream(), Long.MAX_VALUE, MAX_LINE + 1, MAX_FIELDS);
        } catch (HeadReader.Incomplete e) {
            throw new EOFException("connection closed mid-body");
        } catch (HeadException e) {
            throw new ProtocolException(
                    e.kind() == HeadException.Kind.LINE_TOO_LONG
                            ? "line longer than " + MAX_LINE + " bytes"
                            : e.getMessage());
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

    /** One line without its CR LF, read as the shared HTTP/1 parser reads a head's lines. */
    public static String readLine(InputStream in) throws IOException {
        String line;
        try {
            line = HeadReader.over(in).nextLine(MAX_LINE + 1);
        } catch (HeadException e) {
            throw new ProtocolException("line longer than " + MAX_LINE + " bytes");
        } catch (HeadReader.Incomplete e) {
            line = null;
        }
        if (line == null) {
            throw new EOFException("connection closed");
        }
        return line;
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
}
