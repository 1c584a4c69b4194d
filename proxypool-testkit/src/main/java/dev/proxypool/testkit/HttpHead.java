package dev.proxypool.testkit;

import java.io.ByteArrayOutputStream;
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

    /** Reads a head; null on a clean end of stream before its first byte. */
    static HttpHead read(InputStream in) throws IOException {
        String start = readLine(in, true);
        if (start == null) {
            return null;
        }
        List<String[]> fields = new ArrayList<>();
        for (String line = readLine(in, false); !line.isEmpty(); line = readLine(in, false)) {
            int colon = line.indexOf(':');
            if (colon <= 0 || fields.size() >= MAX_FIELDS) {
                throw new HttpParseException("bad header field line");
            }
            fields.add(new String[] {
                line.substring(0, colon).trim(), line.substring(colon + 1).trim()
            });
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

    /** The three parts of a request line; throws on anything else. */
    String[] requestLine() throws HttpParseException {
        String[] parts = startLine.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || !parts[2].startsWith("HTTP/1.")) {
            throw new HttpParseException("bad request line");
        }
        return parts;
    }

    /** The status code of a status line; throws on anything else. */
    int status() throws HttpParseException {
        if (!startLine.startsWith("HTTP/1.") || startLine.length() < 12 || startLine.charAt(8) != ' ') {
            throw new HttpParseException("bad status line");
        }
        try {
            return Integer.parseInt(startLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new HttpParseException("bad status code");
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
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (eofOk && line.size() == 0) {
                    return null;
                }
                throw new EOFException("end of stream inside an HTTP head");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE) {
                throw new HttpParseException("line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
    }

    /** The peer did not speak HTTP/1.x. */
    static final class HttpParseException extends IOException {
        HttpParseException(String message) {
            super(message);
        }
    }
}
