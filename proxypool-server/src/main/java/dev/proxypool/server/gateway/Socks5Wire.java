package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;

/**
 * The SOCKS5 wire constants (RFC 1928, and RFC 1929 for username/password) the gateway's SOCKS5
 * listener speaks ({@link SocksHandshake}), and which reply a refusal or a failed tunnel gets.
 */
final class Socks5Wire {

    static final int VERSION = 5;
    static final int METHOD_NONE = 0x00;
    static final int METHOD_USER_PASSWORD = 0x02;
    static final int NO_ACCEPTABLE_METHOD = 0xFF;
    static final int AUTH_VERSION = 0x01;
    static final int CMD_CONNECT = 0x01;
    static final int ATYP_IPV4 = 0x01;
    static final int ATYP_DOMAIN = 0x03;
    static final int ATYP_IPV6 = 0x04;
    static final int REP_SUCCEEDED = 0x00;
    static final int REP_GENERAL_FAILURE = 0x01;
    static final int REP_NOT_ALLOWED = 0x02;
    static final int REP_HOST_UNREACHABLE = 0x04;
    static final int REP_CONNECTION_REFUSED = 0x05;
    static final int REP_TTL_EXPIRED = 0x06;
    static final int REP_COMMAND_NOT_SUPPORTED = 0x07;
    static final int REP_ADDRESS_TYPE_NOT_SUPPORTED = 0x08;

    /** The "method" of SOCKS5 exchanges in the access log and the request log. */
    static final String LOG_METHOD = "SOCKS5";

    private Socks5Wire() {}

    /** The reply for an engine's refusal: "not allowed" for a denied destination or a rate limit. */
    static int rejectionReply(RouteDecision.Rejected r) {
        return r.status() == 403 || r.status() == 429 ? REP_NOT_ALLOWED : REP_GENERAL_FAILURE;
    }

    /** The reply for a tunnel that could not be opened. */
    static int failureReply(FailureKind kind) {
        return switch (kind) {
            case CONNECT_TIMEOUT, SLOW_BODY -> REP_TTL_EXPIRED;
            case CONNECTION_REFUSED -> REP_CONNECTION_REFUSED;
            case UPSTREAM_UNREACHABLE -> REP_HOST_UNREACHABLE;
            default -> REP_GENERAL_FAILURE;
        };
    }
}
