package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import java.io.IOException;

/** A handshake step saw a reply it classifies itself; the dialer adds the proxy context. */
final class HandshakeRejected extends IOException {

    private final FailureKind kind;

    HandshakeRejected(FailureKind kind, String reason) {
        super(reason);
        this.kind = kind;
    }

    FailureKind kind() {
        return kind;
    }
}
