package dev.proxypool.testkit;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The start line and header fields of one HTTP/1.x message, as read from the wire (order and case
 * kept). Bounded: 8 KiB per line, 100 fields, so a garbage peer cannot exhaust memory.
 */
record HttpHead(String startLine, List<String[]> fields) {

    static final int MAX_LINE = 8192;
    static final int MAX_FIELDS = 100;

    /**
     * Reads a head with the shared HTTP/1 parser (lenient fields); null on a clean end of stream
     * before its first byte.
     */
    static HttpHead read(InputStream in) throws IOException {
        String start = readLine(in, true);
        if (start == null) {
            return null;
        }
        List<String[]> fields = new ArrayList<>();
        try {
            Http1Parser.fields(
                    HeadReader.over(in),
                    (name, value) -> fields.add(new String[] {name, value}),
                    MAX_LINE + 1,
                    Integer.MAX_VALUE,
                    MAX_FIELDS,
                    Http1Parser.FieldRules.LENIENT);
        } catch (HeadReader.Incomplete e) {
            throw new EOFException("end of stream inside an HTTP head");
        } catch (HeadException e) {
            throw e.kind() == HeadException.Kind.FIELD_LINE_TOO_LONG
                    ? new HttpParseException("line longer than " + MAX_LINE + " bytes")
                    : new HttpParseException("bad header field line");
        }
        return new HttpHead(start, fields);
    }

    /** First value of the field, case-insensitive; null when absent. */
    String field(String name) {
        for (String[] f : fields) {
            if (f[0].equalsIgnoreCase(name)) {
                return f[1];
            }
        }
        return null;
    }

    boolean hasToken(String name, String token) {
        for (String[] f : fields) {
            if (f[0].equalsIgnoreCase(name)) {
                for (String t : f[1].split(",")) {
                    if (t.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The three parts of a request line (the shared parser's); throws on anything else. */
    String[] requestLine() throws HttpParseException {
        try {
            Http1Parser.RequestLine l = Http1Parser.requestLine(startLine);
            return new String[] {l.method(), l.target(), l.http11() ? "HTTP/1.1" : "HTTP/1.0"};
        } catch (HeadException e) {
            throw new HttpParseException("bad request line");
        }
    }

    /** The status code of a status line (the shared parser's); throws on anything else. */
    int status() throws HttpParseException {
        try {
            return Http1Parser.statusLine(startLine).status();
        } catch (HeadException e) {
            throw new HttpParseException(
                    e.kind() == HeadException.Kind.NOT_HTTP ? "bad status line" : "bad status code");
        }
    }

    /** The request's {@code Content-Length}, -1 when absent. */
    long contentLength() throws HttpParseException {
        String v = field("Content-Length");
        if (v == null) {
            return -1;
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new HttpParseException("negative Content-Length");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new HttpParseException("bad Content-Length");
        }
    }

    boolean chunked() {
        String te = field("Transfer-Encoding");
        return te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
    }

    /** True when the message asks to close after it (HTTP/1.0 without keep-alive, or Connection: close). */
    boolean wantsClose(String version) {
        if (hasToken("Connection", "close")) {
            return true;
        }
        return version.equals("HTTP/1.0") && !hasToken("Connection", "keep-alive");
    }

    byte[] toBytes() {
        StringBuilder sb = new StringBuilder(256).append(startLine).append("\r\n");
        for (String[] f : fields) {
            sb.append(f[0]).append(": ").append(f[1]).append("\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One line without its CRLF (a bare LF is accepted); null at end of stream when {@code eofOk}. */
    static String readLine(InputStream in, boolean eofOk) throws IOException {
        String line;
        try {
            line = HeadReader.over(in).nextLine(MAX_LINE + 1);
        } catch (HeadReader.Incomplete e) {
            line = null;
            eofOk = false;
        } catch (HeadException e) {
            throw new HttpParseException("line longer than " + MAX_LINE + " bytes");
        }
        if (line == null && !eofOk) {
            throw new EOFException("end of stream inside an HTTP head");
        }
        return line;
    }

    /** The peer did not speak HTTP/1.x. */
    static final class HttpParseException extends IOException {
        HttpParseException(String message) {
            super(message);
        }
    }
}
