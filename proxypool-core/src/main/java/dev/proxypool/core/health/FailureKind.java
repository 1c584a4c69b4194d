package dev.proxypool.core.health;

import java.util.Locale;

/**
 * Classified failures of reaching or speaking to a proxy (the proxy's fault). A destination's
 * 403/429/captcha through a working proxy is not a failure kind: it is a per-domain ban
 * ({@link ProxyHealth#banDomain(String, long)}). What each kind does to health: {@link FailureEffect}.
 */
public enum FailureKind {
    /** The proxy's port refused the TCP connection. Cools. */
    CONNECTION_REFUSED,
    /** The TCP connection to the proxy did not complete within the connect timeout. Cools. */
    CONNECT_TIMEOUT,
    /** The proxy answered 407 / refused our credentials: a lasting condition, disables. */
    PROXY_AUTH_REJECTED,
    /** The TLS handshake with an HTTPS proxy failed. Cools. */
    TLS_FAILURE,
    /** The proxy answered something that is not valid HTTP or SOCKS. Cools. */
    PROTOCOL_ERROR,
    /** Connected, but the response stalled or trickled below the minimum rate. */
    SLOW_BODY,
    /** The proxy reset or closed the connection mid-exchange. */
    CONNECTION_RESET,
    /**
     * A working proxy could not (or would not) reach the destination: it answered {@code CONNECT} with
     * 500/502/503/504/403/404, a forwarded request with 502/503/504, or a SOCKS reply naming the
     * target (SOCKS5 1-6, SOCKS4 91). Target-side: see {@link FailureEffect#TARGET_SIDE}.
     */
    UPSTREAM_UNREACHABLE;

    /**
     * The name used in metrics labels, JSON and {@link HealthReason#code()}.
     *
     * @return the lower-case constant name, such as {@code connect_timeout}
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
