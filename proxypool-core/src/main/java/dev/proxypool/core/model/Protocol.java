package dev.proxypool.core.model;

import java.util.Locale;

/** The protocol spoken to an upstream proxy. */
public enum Protocol {
    /** HTTP proxy, plain connection to the proxy; {@code CONNECT} for tunnels. Default port 80. */
    HTTP("http", 80),
    /** HTTP proxy reached over TLS. Default port 443. */
    HTTPS("https", 443),
    /** SOCKS4 (and 4a, which resolves host names at the proxy). Default port 1080. */
    SOCKS4("socks4", 1080),
    /** SOCKS5 (and 5h, which resolves host names at the proxy). Default port 1080. */
    SOCKS5("socks5", 1080);

    private final String wireName;
    private final int defaultPort;

    Protocol(String wireName, int defaultPort) {
        this.wireName = wireName;
        this.defaultPort = defaultPort;
    }

    /**
     * The name used in config, JSON and URLs.
     *
     * @return the lower-case name ({@code http}, {@code socks5}, ...), which {@link #parse(String)} accepts
     */
    public String wireName() {
        return wireName;
    }

    /**
     * The port assumed when a proxy URL names none.
     *
     * @return 80, 443 or 1080
     */
    public int defaultPort() {
        return defaultPort;
    }

    /**
     * Parses a wire name, case-insensitively; {@code socks4a} is accepted as {@link #SOCKS4} and
     * {@code socks5h} as {@link #SOCKS5}.
     *
     * @param value the name, surrounding whitespace ignored
     * @return the protocol
     * @throws IllegalArgumentException naming the bad value and the accepted ones
     */
    public static Protocol parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("protocol is missing (expected http, https, socks4 or socks5)");
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "http" -> HTTP;
            case "https" -> HTTPS;
            case "socks4", "socks4a" -> SOCKS4;
            case "socks5", "socks5h" -> SOCKS5;
            default ->
                throw new IllegalArgumentException(
                        "unknown protocol '" + value + "' (expected http, https, socks4 or socks5)");
        };
    }

    @Override
    public String toString() {
        return wireName;
    }
}
