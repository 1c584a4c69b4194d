package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.wire.Socks5Codec;

/**
 * Which SOCKS5 reply (the codec: {@link Socks5Codec}) the gateway's SOCKS5 listener ({@link
 * SocksHandshake}) gives a refusal or a failed tunnel.
 */
final class Socks5Wire {

    /** The "method" of SOCKS5 exchanges in the access log and the request log. */
    static final String LOG_METHOD = "SOCKS5";

    private Socks5Wire() {}

    /** The reply for an engine's refusal: "not allowed" for a denied destination or a rate limit. */
    static int rejectionReply(RouteDecision.Rejected r) {
        return r.status() == 403 || r.status() == 429
                ? Socks5Codec.Reply.NOT_ALLOWED.code()
                : Socks5Codec.Reply.GENERAL_FAILURE.code();
    }

    /** The reply for a tunnel that could not be opened. */
    static int failureReply(FailureKind kind) {
        return switch (kind) {
            case CONNECT_TIMEOUT, SLOW_BODY -> Socks5Codec.Reply.TTL_EXPIRED.code();
            case CONNECTION_REFUSED -> Socks5Codec.Reply.CONNECTION_REFUSED.code();
            case UPSTREAM_UNREACHABLE -> Socks5Codec.Reply.HOST_UNREACHABLE.code();
            default -> Socks5Codec.Reply.GENERAL_FAILURE.code();
        };
    }
}
