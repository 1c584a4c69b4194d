package dev.proxypool.server.gateway;

import java.io.IOException;
import java.util.Set;

/**
 * A parsed client request head: request line, headers, target and body framing, validated with
 * the hard limits of {@link GatewayConfig}. Any violation is a {@link WireException} with the
 * status and reason the client gets before the connection is closed.
 */
final class RequestHead {

    private static final Set<String> METHODS = Set.of(
            "GET",
            "HEAD",
            "POST",
            "PUT",
            "DELETE",
            "OPTIONS",
            "PATCH",
            "TRACE",
            "CONNECT",
            "PROPFIND",
            "PROPPATCH",
            "MKCOL",
            "COPY",
            "MOVE",
            "LOCK",
            "UNLOCK",
            "REPORT",
            "SEARCH");
    private static final int MAX_EMPTY_LINES = 4;

    final String method;
    final boolean http11;
    final HeaderFields headers;
    final RequestTarget target;
    final boolean connect;
    final long framing;

    private RequestHead(String method, boolean http11, HeaderFields headers, RequestTarget target, long framing) {
        this.method = method;
        this.http11 = http11;
        this.headers = headers;
        this.target = target;
        this.connect = method.equals("CONNECT");
        this.framing = framing;
    }

    /** The CONNECT a SOCKS5 request amounts to (its credentials as {@code Proxy-Authorization} in {@code headers}). */
    static RequestHead socks(RequestTarget target, HeaderFields headers) {
        return new RequestHead("CONNECT", true, headers, target, 0);
    }

    /**
     * Reads one request head.
     *
     * @return the head, or {@code null} when the client closed the connection between requests
     */
    static RequestHead read(WireReader in, GatewayConfig cfg) throws IOException, WireException {
        String line;
        int empty = 0;
        try {
            do {
                line = in.readLine(cfg.maxRequestLineBytes());
                if (line == null) {
                    return null;
                }
            } while (line.isEmpty() && ++empty <= MAX_EMPTY_LINES);
        } catch (WireReader.LineTooLongException e) {
            throw new WireException(
                    431,
                    GatewayErrors.REQUEST_LINE_TOO_LONG,
                    "request line longer than " + cfg.maxRequestLineBytes() + " bytes");
        }
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0 || sp2 == sp1 + 1) {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "malformed request line");
        }
        if (!Tokens.isToken(line, 0, sp1)) {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "malformed method in request line");
        }
        String method = line.substring(0, sp1);
        String version = line.substring(sp2 + 1);
        boolean http11;
        if (version.equals("HTTP/1.1")) {
            http11 = true;
        } else if (version.equals("HTTP/1.0")) {
            http11 = false;
        } else if (method.equals("PRI")) {
            throw WireException.badRequest(GatewayErrors.UNSUPPORTED_METHOD, "HTTP/2 prior knowledge is not supported");
        } else {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "unsupported HTTP version");
        }
        if (!METHODS.contains(method)) {
            throw WireException.badRequest(GatewayErrors.UNSUPPORTED_METHOD, "method not supported by the gateway");
        }
        String rawTarget = line.substring(sp1 + 1, sp2);
        RequestTarget target =
                method.equals("CONNECT") ? RequestTarget.connect(rawTarget) : RequestTarget.absolute(rawTarget);

        HeaderFields headers = new HeaderFields();
        readFields(in, headers, cfg.maxHeaderBytes(), cfg.maxHeaderCount(), true);
        long framing = Framing.of(headers, 0, true);
        if (framing == Long.MIN_VALUE) {
            throw WireException.badRequest(
                    GatewayErrors.BAD_FRAMING, "conflicting or invalid Content-Length / Transfer-Encoding");
        }
        if (hostFields(headers) > 1) { // RFC 9112 §3.2: more than one Host field is a 400
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "more than one Host header");
        }
        if (http11 && !headers.contains("Host") && !method.equals("CONNECT")) {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "HTTP/1.1 request without Host");
        }
        return new RequestHead(method, http11, headers, target, framing);
    }

    private static int hostFields(HeaderFields h) {
        int n = 0;
        for (int i = 0, size = h.size(); i < size; i++) {
            if (h.name(i).equalsIgnoreCase("Host")) {
                n++;
            }
        }
        return n;
    }

    /**
     * Reads header fields up to the empty line.
     *
     * @param client true: errors are the client's (400/431); false: the upstream's (502)
     */
    static void readFields(WireReader in, HeaderFields into, int maxBytes, int maxCount, boolean client)
            throws IOException, WireException {
        int total = 0;
        while (true) {
            String line;
            try {
                line = in.readLine(maxBytes - total + 2);
            } catch (WireReader.LineTooLongException e) {
                throw tooLarge(client, maxBytes);
            }
            if (line == null) {
                throw in.unexpectedEnd("stream ended inside the header block");
            }
            if (line.isEmpty()) {
                return;
            }
            total += line.length() + 2;
            if (total > maxBytes || into.size() >= maxCount) {
                throw tooLarge(client, maxBytes);
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw fieldError(client, "obsolete line folding in header block");
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw fieldError(client, "header line without a colon");
            }
            if (!Tokens.isToken(line, 0, colon)) {
                throw fieldError(client, "malformed header name");
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
                throw fieldError(client, "bad character in header value");
            }
            into.add(line.substring(0, colon), value);
        }
    }

    private static WireException tooLarge(boolean client, int maxBytes) {
        return client
                ? new WireException(
                        431, GatewayErrors.HEADERS_TOO_LARGE, "header block larger than " + maxBytes + " bytes")
                : new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "upstream header block too large");
    }

    private static WireException fieldError(boolean client, String message) {
        return client
                ? WireException.badRequest(GatewayErrors.BAD_REQUEST, message)
                : new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "upstream sent a " + message);
    }
}
