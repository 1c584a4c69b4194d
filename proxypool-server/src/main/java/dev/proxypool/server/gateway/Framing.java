package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Tokens;

/**
 * How a message body is delimited (RFC 9112 §6), encoded in one {@code long} so the per-request
 * path allocates nothing for it: a value {@code >= 0} is a Content-Length.
 */
final class Framing {

    /** Transfer-Encoding ending in chunked. */
    static final long CHUNKED = -2;
    /** A response delimited by the server closing the connection. */
    static final long UNTIL_CLOSE = -3;

    private Framing() {}

    /**
     * The framing a set of headers declares; {@code onMissing} applies when neither
     * Content-Length nor Transfer-Encoding is present (0 for requests, UNTIL_CLOSE for responses).
     *
     * @return the framing, or {@code Long.MIN_VALUE} when the headers conflict
     */
    static long of(HeaderFields h, long onMissing, boolean request) {
        String te = null;
        String cl = null;
        boolean clConflict = false;
        for (int i = 0, n = h.size(); i < n; i++) {
            String name = h.name(i);
            if (name.equalsIgnoreCase("Transfer-Encoding")) {
                te = te == null ? h.value(i) : te + ", " + h.value(i);
            } else if (name.equalsIgnoreCase("Content-Length")) {
                String v = h.value(i);
                if (cl != null && !cl.equals(v)) {
                    clConflict = true;
                }
                cl = v;
            }
        }
        if (te != null) {
            if (cl != null) {
                return Long.MIN_VALUE; // smuggling vector: both framings present
            }
            if (Tokens.last(te).equalsIgnoreCase("chunked")) {
                // RFC 9112 §6.1: chunked is applied once; a request chunked twice (two fields, or
                // "chunked, chunked") is framed differently by the next hop's parser: a smuggling vector
                return request && Tokens.count(te, "chunked") > 1 ? Long.MIN_VALUE : CHUNKED;
            }
            return request ? Long.MIN_VALUE : UNTIL_CLOSE;
        }
        if (cl != null) {
            if (clConflict) {
                return Long.MIN_VALUE;
            }
            long len = parseListOfEqualLengths(cl);
            return len < 0 ? Long.MIN_VALUE : len;
        }
        return onMissing;
    }

    /** "5" or "5, 5" (a list of equal values is allowed by RFC 9110 §8.6). */
    private static long parseListOfEqualLengths(String v) {
        if (v.indexOf(',') < 0) {
            return Tokens.parseLength(v.strip());
        }
        long result = -1;
        for (String part : v.split(",")) {
            long len = Tokens.parseLength(part.strip());
            if (len < 0 || result >= 0 && len != result) {
                return -1;
            }
            result = len;
        }
        return result;
    }
}
