package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
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
     * Reads one request head with the shared HTTP/1 parser.
     *
     * @return the head, or {@code null} when the client closed the connection between requests
     * @throws HeadReader.Incomplete the input ended inside the head (with a window: not whole yet)
     */
    static RequestHead read(HeadReader in, GatewayConfig cfg) throws IOException, WireException {
        Http1Parser.RequestLine line;
        try {
            line = Http1Parser.requestLine(in, cfg.maxRequestLineBytes());
        } catch (HeadException e) {
            throw clientError(e, cfg);
        }
        if (line == null) {
            return null;
        }
        String method = line.method();
        if (!METHODS.contains(method)) {
            throw WireException.badRequest(GatewayErrors.UNSUPPORTED_METHOD, "method not supported by the gateway");
        }
        RequestTarget target =
                method.equals("CONNECT") ? RequestTarget.connect(line.target()) : RequestTarget.absolute(line.target());

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
        if (line.http11() && !headers.contains("Host") && !method.equals("CONNECT")) {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "HTTP/1.1 request without Host");
        }
        return new RequestHead(method, line.http11(), headers, target, framing);
    }

    /** The client's answer for a request line the parser refused. */
    private static WireException clientError(HeadException e, GatewayConfig cfg) {
        return switch (e.kind()) {
            case REQUEST_LINE_TOO_LONG ->
                new WireException(
                        431,
                        GatewayErrors.REQUEST_LINE_TOO_LONG,
                        "request line longer than " + cfg.maxRequestLineBytes() + " bytes");
            case HTTP2_PREFACE -> WireException.badRequest(GatewayErrors.UNSUPPORTED_METHOD, e.getMessage());
            default -> WireException.badRequest(GatewayErrors.BAD_REQUEST, e.getMessage());
        };
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
    static void readFields(HeadReader in, HeaderFields into, int maxBytes, int maxCount, boolean client)
            throws IOException, WireException {
        try {
            Http1Parser.fields(in, into, maxBytes, maxCount, Http1Parser.FieldRules.STRICT);
        } catch (HeadException e) {
            throw switch (e.kind()) {
                case HEADERS_TOO_LARGE, TOO_MANY_FIELDS -> tooLarge(client, maxBytes);
                default -> fieldError(client, e.getMessage());
            };
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
