package dev.proxypool.core.wire;

import java.io.IOException;

/**
 * A message head broke HTTP/1 ({@link Kind} says how), or a SOCKS5 message broke RFC 1928. Each
 * caller maps the kind to its own answer (the gateway: a 400/431 to a client, a 502 for an
 * upstream; the validator: a failure reason; the dialer: a protocol error). Carries no stack trace:
 * it is flow control, not a bug.
 */
public final class HeadException extends IOException {

    /** What was wrong. */
    public enum Kind {
        /** The request line is longer than its cap. */
        REQUEST_LINE_TOO_LONG,
        /** The status line is longer than its cap. */
        STATUS_LINE_TOO_LONG,
        /** The header block is larger than its byte cap. */
        HEADERS_TOO_LARGE,
        /** The header block holds more fields than its count cap. */
        TOO_MANY_FIELDS,
        /** One field line is longer than the cap on a single line. */
        FIELD_LINE_TOO_LONG,
        /** A line read with {@link HeadReader#nextLine} is longer than its cap. */
        LINE_TOO_LONG,
        /** Not {@code method SP target SP version}. */
        MALFORMED_REQUEST_LINE,
        /** The method is not a token. */
        MALFORMED_METHOD,
        /** {@code PRI * HTTP/2.0}: the HTTP/2 connection preface. */
        HTTP2_PREFACE,
        /** A version other than {@code HTTP/1.0} and {@code HTTP/1.1}. */
        UNSUPPORTED_VERSION,
        /** Not {@code HTTP/1.x SP}: the reply is not HTTP/1 at all. */
        NOT_HTTP,
        /** The three status digits are not digits. */
        MALFORMED_STATUS_CODE,
        /** A status below 100, or the digits not followed by SP or the line's end. */
        MALFORMED_STATUS_LINE,
        /** A field line starting with SP or HTAB (RFC 9112 obs-fold). */
        OBSOLETE_LINE_FOLDING,
        /** A field line without a colon, or (lenient) with an empty name. */
        NO_COLON,
        /** A field name that is not a token. */
        MALFORMED_FIELD_NAME,
        /** A control character (other than HTAB) in a field value. */
        BAD_FIELD_VALUE,
        /** A chunk-size line that is not 1 to 15 hex digits (extensions after {@code ;} aside). */
        MALFORMED_CHUNK_SIZE,
        /** A chunk's data not followed by CRLF. */
        CHUNK_NOT_TERMINATED,
        /** A chunked body larger than the reader's limit. */
        BODY_TOO_LARGE,
        /** A SOCKS5 message that breaks RFC 1928 / RFC 1929. */
        SOCKS5_PROTOCOL
    }

    private final Kind kind;

    /**
     * @param kind    what was wrong
     * @param message a short description without any of the peer's bytes
     */
    public HeadException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** What was wrong. */
    public Kind kind() {
        return kind;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
