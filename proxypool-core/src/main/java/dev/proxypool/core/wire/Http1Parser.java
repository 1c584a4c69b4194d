package dev.proxypool.core.wire;

import dev.proxypool.core.wire.HeadException.Kind;
import java.io.IOException;

/**
 * The HTTP/1 message-head parser (RFC 9112): the request line, the status line and the header
 * block, read from a {@link HeadReader} under hard caps. Strict for the gateway (field names must be
 * tokens, values free of control characters); {@link FieldRules#LENIENT} for the tools that read
 * what a third party's proxy or origin sends (names and values trimmed, any name but an empty one).
 * Every violation is a {@link HeadException} whose {@link HeadException.Kind} the caller maps to its
 * answer; the input ending early is a {@link HeadReader.Incomplete}.
 */
public final class Http1Parser {

    /** Empty lines tolerated before a request line (RFC 9112 §2.2). */
    public static final int MAX_EMPTY_LINES = 4;

    /** How header fields are judged. */
    public enum FieldRules {
        /** Names are tokens, values visible octets, SP and HTAB; OWS around a value is dropped. */
        STRICT,
        /** Names non-empty, both name and value trimmed of whitespace; obs-fold still refused. */
        LENIENT
    }

    /** Where parsed header fields go, in order. */
    @FunctionalInterface
    public interface FieldSink {
        /**
         * One field.
         *
         * @param name  its name as sent (case kept)
         * @param value its value without surrounding whitespace
         */
        void add(String name, String value);
    }

    /**
     * A request line.
     *
     * @param method the method (a token)
     * @param target the request target as sent
     * @param http11 {@code HTTP/1.1} (else {@code HTTP/1.0})
     */
    public record RequestLine(String method, String target, boolean http11) {}

    /**
     * A status line.
     *
     * @param status       the status code, 100 to 999
     * @param reasonPhrase the reason phrase, empty when absent
     * @param http11       any {@code HTTP/1.x} but {@code HTTP/1.0}
     */
    public record StatusLine(int status, String reasonPhrase, boolean http11) {}

    private Http1Parser() {}

    /**
     * Reads a request line, skipping up to {@value #MAX_EMPTY_LINES} empty lines before it.
     *
     * @param maxLine the cap on the line, CRLF included
     * @return the line, or {@code null} when the input ended before it (only empty lines so far)
     */
    public static RequestLine requestLine(HeadReader in, int maxLine) throws IOException {
        String line;
        int empty = 0;
        try {
            do {
                line = in.readLine(maxLine);
                if (line == null) {
                    return null;
                }
            } while (line.isEmpty() && ++empty <= MAX_EMPTY_LINES);
        } catch (HeadReader.LineTooLong e) {
            throw new HeadException(Kind.REQUEST_LINE_TOO_LONG, "request line longer than " + maxLine + " bytes");
        }
        return requestLine(line);
    }

    /** Parses the text of a request line (without its CRLF). */
    public static RequestLine requestLine(String line) throws HeadException {
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0 || sp2 == sp1 + 1) {
            throw new HeadException(Kind.MALFORMED_REQUEST_LINE, "malformed request line");
        }
        if (!Tokens.isToken(line, 0, sp1)) {
            throw new HeadException(Kind.MALFORMED_METHOD, "malformed method in request line");
        }
        String method = line.substring(0, sp1);
        boolean http11;
        if (line.startsWith("HTTP/1.1", sp2 + 1) && line.length() == sp2 + 9) {
            http11 = true;
        } else if (line.startsWith("HTTP/1.0", sp2 + 1) && line.length() == sp2 + 9) {
            http11 = false;
        } else if (method.equals("PRI")) {
            throw new HeadException(Kind.HTTP2_PREFACE, "HTTP/2 prior knowledge is not supported");
        } else {
            throw new HeadException(Kind.UNSUPPORTED_VERSION, "unsupported HTTP version");
        }
        return new RequestLine(method, line.substring(sp1 + 1, sp2), http11);
    }

    /**
     * Reads a status line ({@code HTTP/1.x SP 3DIGIT [SP reason]}).
     *
     * @param maxLine the cap on the line, CRLF included
     * @return the line, or {@code null} when the input ended before its first byte
     */
    public static StatusLine statusLine(HeadReader in, int maxLine) throws IOException {
        String line;
        try {
            line = in.readLine(maxLine);
        } catch (HeadReader.LineTooLong e) {
            throw new HeadException(Kind.STATUS_LINE_TOO_LONG, "status line longer than " + maxLine + " bytes");
        }
        return line == null ? null : statusLine(line);
    }

    /** Parses the text of a status line (without its CRLF). */
    public static StatusLine statusLine(String line) throws HeadException {
        if (line.length() < 12 || !line.startsWith("HTTP/1.") || line.charAt(8) != ' ') {
            throw new HeadException(Kind.NOT_HTTP, "not an HTTP/1 status line");
        }
        char minor = line.charAt(7);
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                throw new HeadException(Kind.MALFORMED_STATUS_CODE, "malformed status code");
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100 || line.length() > 12 && line.charAt(12) != ' ') {
            throw new HeadException(Kind.MALFORMED_STATUS_LINE, "malformed status line");
        }
        String reason = line.length() > 13 ? line.substring(13) : "";
        return new StatusLine(status, reason, minor != '0');
    }

    /**
     * Reads header fields up to and including the empty line that ends the head.
     *
     * @param maxBytes the cap on the header block (each line counted with CRLF, the empty line not)
     * @param maxCount the cap on the number of fields
     */
    public static void fields(HeadReader in, FieldSink into, int maxBytes, int maxCount, FieldRules rules)
            throws IOException {
        fields(in, into, Integer.MAX_VALUE, maxBytes, maxCount, rules);
    }

    /**
     * Reads header fields up to and including the empty line that ends the head, each line also
     * capped on its own.
     *
     * @param maxLine  the cap on one field line, CRLF included ({@link Kind#FIELD_LINE_TOO_LONG})
     * @param maxBytes the cap on the header block, each line counted with CRLF, the empty line not
     *                 ({@link Kind#HEADERS_TOO_LARGE})
     * @param maxCount the cap on the number of fields ({@link Kind#TOO_MANY_FIELDS})
     */
    public static void fields(HeadReader in, FieldSink into, int maxLine, int maxBytes, int maxCount, FieldRules rules)
            throws IOException {
        int total = 0;
        int count = 0;
        while (true) {
            String line;
            int room = maxBytes - total;
            boolean lineCap = room > maxLine - 2;
            try {
                line = in.readLine(lineCap ? maxLine : room + 2);
            } catch (HeadReader.LineTooLong e) {
                throw lineCap
                        ? new HeadException(Kind.FIELD_LINE_TOO_LONG, "header line longer than " + maxLine + " bytes")
                        : tooLarge(maxBytes);
            }
            if (line == null) {
                throw new HeadReader.Incomplete("stream ended inside the header block");
            }
            if (line.isEmpty()) {
                return;
            }
            total += line.length() + 2;
            if (total > maxBytes) {
                throw tooLarge(maxBytes);
            }
            if (count >= maxCount) {
                throw new HeadException(Kind.TOO_MANY_FIELDS, "more than " + maxCount + " header fields");
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw new HeadException(Kind.OBSOLETE_LINE_FOLDING, "obsolete line folding in header block");
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw new HeadException(Kind.NO_COLON, "header line without a colon");
            }
            if (rules == FieldRules.LENIENT) {
                String name = line.substring(0, colon).trim();
                if (name.isEmpty()) {
                    throw new HeadException(Kind.NO_COLON, "header line without a name");
                }
                into.add(name, line.substring(colon + 1).trim());
                count++;
                continue;
            }
            if (!Tokens.isToken(line, 0, colon)) {
                throw new HeadException(Kind.MALFORMED_FIELD_NAME, "malformed header name");
            }
            int s = colon + 1;
            int e = line.length();
            while (s < e && Tokens.isOws(line.charAt(s))) {
                s++;
            }
            while (e > s && Tokens.isOws(line.charAt(e - 1))) {
                e--;
            }
            String value = line.substring(s, e);
            if (!Tokens.isFieldValue(value)) {
                throw new HeadException(Kind.BAD_FIELD_VALUE, "bad character in header value");
            }
            into.add(line.substring(0, colon), value);
            count++;
        }
    }

    private static HeadException tooLarge(int maxBytes) {
        return new HeadException(Kind.HEADERS_TOO_LARGE, "header block larger than " + maxBytes + " bytes");
    }
}
