package dev.proxypool.sdk.dial;

/** Where a dial failed, so a caller can tell whether the proxy was contacted at all. */
public enum DialStage {
    /** Resolving the proxy's credentials: nothing was sent, the proxy was not contacted. */
    CREDENTIALS,
    /** The TCP connect to the proxy. */
    CONNECT,
    /** The TLS handshake with an HTTPS proxy. */
    TLS,
    /** The proxy protocol: {@code CONNECT}, or the SOCKS negotiation and request. */
    HANDSHAKE;

    /** False only for {@link #CREDENTIALS}: the dial failed before any packet left. */
    public boolean proxyContacted() {
        return this != CREDENTIALS;
    }
}
