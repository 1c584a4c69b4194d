package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Tokens;
import java.util.Locale;

/**
 * Where a request goes: host (IPv6 without brackets), port, and for HTTP the origin-form
 * path-and-query. Parsed from absolute-form ({@code http://host[:port]/path}) or authority-form
 * ({@code host:port}, CONNECT) by hand: these run once per request, so no regex and no URI.
 *
 * @param host      the host, lower-case; an IPv6 literal without brackets
 * @param port      1..65535
 * @param path      origin-form path and query ("/" at least); empty for CONNECT
 * @param authority the host[:port] text for the Host header (IPv6 bracketed)
 */
record RequestTarget(String host, int port, String path, String authority) {

    /** Parses {@code http://authority[/path][?query]}; {@code #fragment} is dropped. */
    static RequestTarget absolute(String t) throws WireException {
        if (t.isEmpty() || t.charAt(0) == '/' || t.equals("*")) {
            throw WireException.badRequest(
                    GatewayErrors.ORIGIN_FORM,
                    "the gateway is a forward proxy: send absolute-form (GET http://host/path) or CONNECT");
        }
        int colon = t.indexOf("://");
        if (colon <= 0) {
            throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "request target is not absolute-form");
        }
        if (!t.regionMatches(true, 0, "http", 0, 4) || colon != 4) {
            throw WireException.badRequest(
                    GatewayErrors.UNSUPPORTED_SCHEME,
                    "only http:// is forwarded in absolute-form; use CONNECT for https");
        }
        int start = colon + 3;
        int end = start;
        int n = t.length();
        while (end < n) {
            char c = t.charAt(end);
            if (c == '/' || c == '?' || c == '#') {
                break;
            }
            end++;
        }
        String authority = t.substring(start, end);
        int hash = t.indexOf('#', end);
        String rest = t.substring(end, hash < 0 ? n : hash);
        String path = rest.isEmpty() ? "/" : rest.charAt(0) == '?' ? "/" + rest : rest;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw WireException.badRequest(GatewayErrors.BAD_REQUEST, "request target has a bad character");
            }
        }
        return parseAuthority(authority, 80, path, GatewayErrors.BAD_REQUEST);
    }

    /** Parses a CONNECT target {@code host:port} (the port is required). */
    static RequestTarget connect(String t) throws WireException {
        return parseAuthority(t, -1, "", GatewayErrors.BAD_CONNECT_TARGET);
    }

    private static RequestTarget parseAuthority(String a, int defaultPort, String path, String reason)
            throws WireException {
        if (a.isEmpty() || a.indexOf('@') >= 0) {
            throw WireException.badRequest(reason, "bad authority in request target");
        }
        String host;
        String portText;
        if (a.charAt(0) == '[') {
            int close = a.indexOf(']');
            if (close < 2) {
                throw WireException.badRequest(reason, "bad IPv6 literal in request target");
            }
            host = a.substring(1, close);
            for (int i = 0; i < host.length(); i++) {
                char c = host.charAt(i);
                if (!(c == ':' || c == '.' || isHex(c))) {
                    throw WireException.badRequest(reason, "bad IPv6 literal in request target");
                }
            }
            if (close == a.length() - 1) {
                portText = null;
            } else if (a.charAt(close + 1) == ':') {
                portText = a.substring(close + 2);
            } else {
                throw WireException.badRequest(reason, "bad authority in request target");
            }
        } else {
            int colon = a.lastIndexOf(':');
            host = colon < 0 ? a : a.substring(0, colon);
            portText = colon < 0 ? null : a.substring(colon + 1);
            if (host.isEmpty()) {
                throw WireException.badRequest(reason, "empty host in request target");
            }
            for (int i = 0; i < host.length(); i++) {
                char c = host.charAt(i);
                if (!(c == '.'
                        || c == '-'
                        || c == '_'
                        || c >= '0' && c <= '9'
                        || c >= 'a' && c <= 'z'
                        || c >= 'A' && c <= 'Z')) {
                    throw WireException.badRequest(reason, "bad host in request target");
                }
            }
        }
        int port;
        if (portText == null || portText.isEmpty() && defaultPort > 0) {
            if (defaultPort < 0) {
                throw WireException.badRequest(reason, "CONNECT target needs host:port");
            }
            port = defaultPort;
        } else {
            long p = Tokens.parseLength(portText);
            if (p < 1 || p > 65535) {
                throw WireException.badRequest(reason, "bad port in request target");
            }
            port = (int) p;
        }
        String lower = host.toLowerCase(Locale.ROOT);
        String hostPart = lower.indexOf(':') >= 0 ? "[" + lower + "]" : lower;
        String authority = port == defaultPort ? hostPart : hostPart + ":" + port;
        return new RequestTarget(lower, port, path, authority);
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }
}
