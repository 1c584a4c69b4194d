package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import java.io.IOException;

/**
 * A proxy's answer to a tunnel handshake refused the tunnel or broke the protocol, classified by
 * {@link Failures} (the dialer adds the proxy context). {@link #destinationForbidden()} marks a
 * proxy's policy refusing this destination (HTTP 403 to {@code CONNECT}, SOCKS5 "not allowed by
 * ruleset"): a per-domain ban, besides the kind. The message names no address and no secret.
 */
public final class HandshakeRejected extends IOException {

    private final FailureKind kind;
    private final boolean destinationForbidden;

    HandshakeRejected(FailureKind kind, String reason) {
        this(kind, reason, false);
    }

    HandshakeRejected(FailureKind kind, String reason, boolean destinationForbidden) {
        super(reason);
        this.kind = kind;
        this.destinationForbidden = destinationForbidden;
    }

    /**
     * Who is blamed.
     *
     * @return the failure's kind
     */
    public FailureKind kind() {
        return kind;
    }

    /**
     * Whether the proxy's policy refused this destination (a per-domain ban).
     *
     * @return true for HTTP 403 to {@code CONNECT} and SOCKS5 reply 2
     */
    public boolean destinationForbidden() {
        return destinationForbidden;
    }
}
