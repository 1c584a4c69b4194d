package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import java.io.IOException;

/**
 * An engine's dialer could not open the link and knows why (e.g. the upstream proxy answered 407
 * to our CONNECT): the kind goes to passive health as is. Other {@link IOException}s of a dial are
 * classified by type (timeout, refused, reset: {@link UpstreamConnector#connectFailure}).
 */
public final class UpstreamDialException extends IOException {

    private final FailureKind kind;

    public UpstreamDialException(FailureKind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public FailureKind kind() {
        return kind;
    }
}
