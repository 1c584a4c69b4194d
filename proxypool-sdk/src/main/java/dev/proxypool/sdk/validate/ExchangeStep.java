package dev.proxypool.sdk.validate;

import dev.proxypool.sdk.dial.DialStage;

/** How far a {@link ProxiedExchange} got: where it failed, or where its deadline caught it. */
public enum ExchangeStep {
    /** Resolving the proxy's credentials: nothing was sent. */
    CREDENTIALS,
    /** The TCP connect to the proxy (or to the target, for a direct exchange). */
    CONNECT,
    /** TLS with an HTTPS proxy. */
    PROXY_TLS,
    /** The proxy protocol: {@code CONNECT} or the SOCKS negotiation. */
    HANDSHAKE,
    /** TLS with an {@code https://} target inside the tunnel. */
    TARGET_TLS,
    /** Sending the request. */
    REQUEST,
    /** Reading the response. */
    RESPONSE;

    /** True while the connection through the proxy was still being set up (a timeout here is a connect timeout). */
    public boolean beforeTunnel() {
        return ordinal() <= HANDSHAKE.ordinal();
    }

    static ExchangeStep of(DialStage stage) {
        return switch (stage) {
            case CREDENTIALS -> CREDENTIALS;
            case CONNECT -> CONNECT;
            case TLS -> PROXY_TLS;
            case HANDSHAKE -> HANDSHAKE;
        };
    }
}
