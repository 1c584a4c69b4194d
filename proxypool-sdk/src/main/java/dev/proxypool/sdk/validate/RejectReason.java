package dev.proxypool.sdk.validate;

import java.util.Locale;

/** Why the validator rejected a candidate; {@link #wireName()} is the reason code shown in tables and metrics. */
public enum RejectReason {
    /** The echo endpoint saw the validator's own address: a transparent proxy (or traffic bypassing it). */
    DIRECT_ADDRESS_SEEN,
    /** A forwarding header carried the validator's address. */
    ADDRESS_LEAKED,
    /** The proxy rejected the credentials (407, SOCKS auth failure, SOCKS4 USERID refused). */
    AUTH_REJECTED,
    /** The candidate's {@code credentialRef} is not in the credential store: nothing was sent (fail closed). */
    CREDENTIALS_MISSING,
    /** The TCP connect to the proxy failed. */
    CONNECTION_REFUSED,
    /** The TCP connect to the proxy timed out. */
    CONNECT_TIMEOUT,
    /** The proxy accepted the connection but did not finish in time (handshake, tunnel, or reply). */
    TIMEOUT,
    /** The proxy closed or reset the connection mid-exchange. */
    CONNECTION_RESET,
    /** The bytes were not the protocol spoken: an open port that is not this kind of proxy. */
    PROTOCOL_ERROR,
    /** TLS with an HTTPS proxy, or with an {@code https://} echo endpoint through the tunnel, failed. */
    TLS_FAILURE,
    /** The proxy could not reach the echo endpoint (502/503/504, SOCKS "host unreachable"). */
    UPSTREAM_UNREACHABLE,
    /** An HTTP reply came back, but not a 200 with the echo JSON. */
    BAD_ECHO_RESPONSE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
