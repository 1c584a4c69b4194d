package dev.proxypool.sdk.dial;

import java.time.Duration;

/**
 * Timeouts of one dial through an upstream proxy.
 *
 * @param connectTimeout   the TCP connect to the proxy; default {@value #DEFAULT_CONNECT_TIMEOUT_MS} ms
 * @param handshakeTimeout everything after the TCP connect until the tunnel is ready, as one
 *                         deadline: TLS with an HTTPS proxy, {@code CONNECT} or the SOCKS
 *                         negotiation, and the proxy's own connect to the target; default
 *                         {@value #DEFAULT_HANDSHAKE_TIMEOUT_MS} ms
 */
public record DialPolicy(Duration connectTimeout, Duration handshakeTimeout) {

    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;
    /** Longest accepted timeout: socket timeouts are int milliseconds. */
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

    /** The defaults: 5 s to connect, 5 s to finish the handshake. */
    public static final DialPolicy DEFAULTS = new DialPolicy(
            Duration.ofMillis(DEFAULT_CONNECT_TIMEOUT_MS), Duration.ofMillis(DEFAULT_HANDSHAKE_TIMEOUT_MS));

    public DialPolicy {
        check("connectTimeout", connectTimeout);
        check("handshakeTimeout", handshakeTimeout);
    }

    public DialPolicy withConnectTimeout(Duration d) {
        return new DialPolicy(d, handshakeTimeout);
    }

    private static void check(String name, Duration d) {
        if (d == null || d.toMillis() < 1 || d.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(name + " must be between 1 ms and " + MAX_TIMEOUT + ", got " + d);
        }
    }
}
