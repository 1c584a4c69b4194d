package dev.proxypool.sdk.validate;

import dev.proxypool.core.wire.ChunkedBody;
import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one HTTP/1.x response from untrusted bytes, bounded everywhere: a line at most
 * {@value #MAX_LINE} bytes, at most {@value #MAX_FIELDS} fields, a body at most the caller's limit.
 * Interim 1xx responses are skipped; the body is framed by chunked encoding, Content-Length, or the
 * connection's end. Anything that is not HTTP raises {@link NotHttp}.
 */
final class ReplyReader {

    static final int MAX_LINE = 8 * 1024;
    static final int MAX_FIELDS = 100;
    private static final int MAX_INTERIM = 4;

    /** The bytes are not an HTTP response (or break its framing). */
    static final class NotHttp extends IOException {
        NotHttp(String message) {
            super(message);
        }
    }

    /** A response head: status and fields. */
    record Head(int status, List<Map.Entry<String, String>> fields) {

        String field(String name) {
            for (Map.Entry<String, String> f : fields) {
                if (f.getKey().equalsIgnoreCase(name)) {
                    return f.getValue();
                }
            }
            return null;
        }
    }

    private ReplyReader() {}

    /** Reads the final (non-1xx) head. */
    static Head head(InputStream in) throws IOException {
        Head h = readHead(in);
        for (int n = 0; h.status() / 100 == 1 && h.status() != 101; n++) {
            if (n == MAX_INTERIM) {
                throw new NotHttp("too many interim responses");
            }
            h = readHead(in);
        }
        return h;
    }

    /** Reads the body of a response to {@code GET}, at most {@code limit} bytes. */
    static byte[] body(InputStream in, Head h, int limit) throws IOException {
        if (h.status() == 204 || h.status() == 304 || h.status() / 100 == 1) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String te = h.field("Transfer-Encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            dechunk(in, out, limit);
            return out.toByteArray();
        }
        String cl = h.field("Content-Length");
        if (cl != null) {
            long n = contentLength(cl);
            if (n > limit) {
                throw new NotHttp("the body is larger than " + limit + " bytes");
            }
            copy(in, out, (int) n, true);
            return out.toByteArray();
        }
        copy(in, out, limit + 1, false); // until the connection ends
        if (out.size() > limit) {
            throw new NotHttp("the body is larger than " + limit + " bytes");
        }
        return out.toByteArray();
    }

    /** One head with the shared HTTP/1 parser (lenient fields: a third party's proxy wrote them). */
    private static Head readHead(InputStream in) throws IOException {
        HeadReader r = HeadReader.over(in);
        Http1Parser.StatusLine status;
        try {
            status = Http1Parser.statusLine(r, MAX_LINE + 1);
        } catch (HeadException e) {
            throw switch (e.kind()) {
                case STATUS_LINE_TOO_LONG -> lineTooLong();
                case NOT_HTTP -> new NotHttp("the reply is not HTTP");
                default -> new NotHttp("the reply has no HTTP status code");
            };
        } catch (HeadReader.Incomplete e) {
            throw insideHead();
        }
        if (status == null) {
            throw new EOFException("the connection ended before a response");
        }
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        try {
            Http1Parser.fields(
                    r,
                    (name, value) -> fields.add(Map.entry(name, value)),
                    MAX_LINE + 1,
                    Integer.MAX_VALUE,
                    MAX_FIELDS,
                    Http1Parser.FieldRules.LENIENT);
        } catch (HeadException e) {
            throw switch (e.kind()) {
                case FIELD_LINE_TOO_LONG -> lineTooLong();
                case TOO_MANY_FIELDS -> new NotHttp("more than " + MAX_FIELDS + " header fields");
                default -> new NotHttp("a malformed header field");
            };
        } catch (HeadReader.Incomplete e) {
            throw insideHead();
        }
        return new Head(status.status(), fields);
    }

    private static NotHttp lineTooLong() {
        return new NotHttp("a response line is longer than " + MAX_LINE + " bytes");
    }

    private static EOFException insideHead() {
        return new EOFException("the connection ended inside the response head");
    }

    private static long contentLength(String v) throws NotHttp {
        String t = v.trim();
        if (t.isEmpty() || t.length() > 18 || !t.chars().allMatch(Character::isDigit)) {
            throw new NotHttp("a malformed Content-Length");
        }
        return Long.parseLong(t);
    }

    private static void dechunk(InputStream in, ByteArrayOutputStream out, int limit) throws IOException {
        try {
            ChunkedBody.copyData(in, out, limit - out.size(), MAX_LINE + 1, MAX_FIELDS);
        } catch (HeadReader.Incomplete e) {
            throw insideHead();
        } catch (HeadException e) {
            throw switch (e.kind()) {
                case LINE_TOO_LONG -> lineTooLong();
                case TOO_MANY_FIELDS -> new NotHttp("too many trailer fields");
                case BODY_TOO_LARGE -> new NotHttp("the body is larger than " + limit + " bytes");
                default -> new NotHttp(e.getMessage()); // a malformed chunk size, a chunk not followed by CRLF
            };
        } catch (EOFException e) {
            throw new EOFException("the connection ended inside the body");
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out, int n, boolean exact) throws IOException {
        byte[] buf = new byte[Math.min(8192, Math.max(1, n))];
        int left = n;
        while (left > 0) {
            int r = in.read(buf, 0, Math.min(buf.length, left));
            if (r < 0) {
                if (exact) {
                    throw new EOFException("the connection ended inside the body");
                }
                return;
            }
            out.write(buf, 0, r);
            left -= r;
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
