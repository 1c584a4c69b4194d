package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import java.io.IOException;

/**
 * A handshake step saw a reply it classifies itself; the dialer adds the proxy context.
 * {@link #destinationForbidden()} marks a proxy's policy refusing this destination (HTTP 403 to
 * {@code CONNECT}, SOCKS5 "not allowed by ruleset"): a per-domain ban, besides the kind.
 */
final class HandshakeRejected extends IOException {

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

    FailureKind kind() {
        return kind;
    }

    boolean destinationForbidden() {
        return destinationForbidden;
    }
}
