package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Tokens;

/**
 * Which header fields stop at this hop (RFC 9110 §7.6.1): Connection and every field it names,
 * the classic hop-by-hop set, the client's proxy credentials, and the gateway's own control
 * headers ({@code X-ProxyPool-*}, e.g. the sticky session id). Framing headers are relayed
 * verbatim because the body is relayed with its framing.
 */
final class HopByHop {

    private static final String[] ALWAYS = {
        "Connection",
        "Proxy-Connection",
        "Keep-Alive",
        "TE",
        "Trailer",
        "Upgrade",
        "Proxy-Authorization",
        "Proxy-Authenticate"
    };
    private static final String OWN_PREFIX = "X-ProxyPool-";

    private HopByHop() {}

    /**
     * @param connection the combined Connection header value(s), or {@code null}
     */
    static boolean skip(String name, String connection) {
        for (String h : ALWAYS) {
            if (h.equalsIgnoreCase(name)) {
                return true;
            }
        }
        if (name.length() > OWN_PREFIX.length() && name.regionMatches(true, 0, OWN_PREFIX, 0, OWN_PREFIX.length())) {
            return true;
        }
        return connection != null && Tokens.contains(connection, name);
    }

    /** All Connection header values joined, or {@code null} (the common case: allocation-free). */
    static String connection(HeaderFields h) {
        String joined = null;
        for (int i = 0, n = h.size(); i < n; i++) {
            if (h.name(i).equalsIgnoreCase("Connection")) {
                joined = joined == null ? h.value(i) : joined + "," + h.value(i);
            }
        }
        return joined;
    }
}
