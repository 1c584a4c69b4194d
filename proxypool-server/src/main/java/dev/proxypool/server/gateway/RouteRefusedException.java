package dev.proxypool.server.gateway;

import java.io.IOException;
import java.util.Objects;

/**
 * An attempt's {@link UpstreamAttempt#dial()} found, on looking its destination up, that the request
 * must be refused after all (a name whose addresses the destination policy denies, or a name that
 * does not resolve): the wire layer answers with {@link #rejected()} as if {@link GatewayEngine#route}
 * had, and completes the attempt as abandoned (nothing was tried: no health report).
 */
public final class RouteRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient RouteDecision.Rejected rejected;

    public RouteRefusedException(RouteDecision.Rejected rejected) {
        super(rejected.reason());
        this.rejected = Objects.requireNonNull(rejected, "rejected");
    }

    /** An answer, not a fault: no stack to fill. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }

    /** The answer the client gets. */
    public RouteDecision.Rejected rejected() {
        return rejected;
    }
}
