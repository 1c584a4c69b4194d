package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;

/** How an attempt ended, for passive health and capacity release. */
public sealed interface AttemptOutcome {

    /**
     * The proxy carried the exchange, whatever status the destination answered.
     *
     * @param status the destination's response status, 0 for a tunnel (opaque bytes); a 403 or 429
     *               is a destination's signal about this proxy (a per-domain ban), not a proxy fault
     */
    record Success(int status) implements AttemptOutcome {}

    /** The proxy failed; {@code kind} feeds passive health. */
    record Failure(FailureKind kind) implements AttemptOutcome {}

    /** Neither: the client went away or the gateway stopped; not the proxy's fault. */
    record Abandoned() implements AttemptOutcome {}

    AttemptOutcome SUCCESS = new Success(0);

    static AttemptOutcome success(int status) {
        return new Success(status);
    }

    AttemptOutcome ABANDONED = new Abandoned();

    static AttemptOutcome failure(FailureKind kind) {
        return new Failure(kind);
    }
}
