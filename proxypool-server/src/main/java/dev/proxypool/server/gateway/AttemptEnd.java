package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;

/**
 * How one forwarding attempt through an upstream ended, as {@link GatewayConnection} sees it: the
 * response was relayed, the attempt failed before any response byte reached the client (the only
 * case that may be retried), the exchange broke after that (or the client went away), or the
 * client's own chunked body was malformed.
 */
sealed interface AttemptEnd {

    /** A response was relayed to the client; {@code keepClient}: the client connection stays open. */
    record Relayed(boolean keepClient) implements AttemptEnd {}

    /** Failed before any response byte reached the client: retryable, or answered 502/504. */
    record Failed(FailureKind kind) implements AttemptEnd {
        /** Answered 504 rather than 502 when nothing else is left to try. */
        boolean timeout() {
            return kind == FailureKind.CONNECT_TIMEOUT || kind == FailureKind.SLOW_BODY;
        }
    }

    /** Broke after the response had started, or the client went away: the connection is cut. */
    record Broken() implements AttemptEnd {}

    /** The client's own chunked request body was malformed before any response byte: answered 400. */
    record ClientBadFraming() implements AttemptEnd {}
}
