package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.wire.Socks5Codec;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLException;

/**
 * The one failure classification table of dials through upstream proxies (docs/reliability.md,
 * "Who is blamed for an upstream's answer"): what a proxy answers to a tunnel handshake
 * ({@link #connectStatus}, {@link #socks4Reply}, {@link #socks5Reply}, {@link #socks5NoMethod},
 * {@link #socks5AuthStatus}) and how an I/O failure at a dial stage is classified
 * ({@link #classify}). {@link UpstreamHandshake} consults it for every reply, so the blocking
 * {@link UpstreamDialer} and a non-blocking dialer driving the same codec blame the same party.
 * Reasons never carry the JDK's message (which may name an address).
 */
public final class Failures {

    private Failures() {}

    /**
     * A classified failure.
     *
     * @param kind   what happened, for passive health
     * @param reason a short reason without addresses or secrets
     */
    public record Classified(FailureKind kind, String reason) {}

    /**
     * Classifies an I/O failure at a dial stage. A deadline kept by a timer (rather than a socket
     * timeout) is classified by passing a {@link SocketTimeoutException}.
     *
     * @param e     the failure
     * @param stage where the dial was
     * @return its kind and a reason without the JDK's message
     */
    public static Classified classify(IOException e, DialStage stage) {
        if (has(e, SocketTimeoutException.class)) {
            return new Classified(
                    FailureKind.CONNECT_TIMEOUT,
                    switch (stage) {
                        case CONNECT -> "connect timed out";
                        case TLS -> "TLS handshake timed out";
                        default -> "handshake timed out";
                    });
        }
        if (has(e, InterruptedIOException.class)) {
            return new Classified(FailureKind.CONNECT_TIMEOUT, "interrupted");
        }
        String type = " (" + e.getClass().getSimpleName() + ")";
        return switch (stage) {
            case CREDENTIALS -> new Classified(FailureKind.PROXY_AUTH_REJECTED, "credentials unavailable" + type);
            case CONNECT -> new Classified(FailureKind.CONNECTION_REFUSED, "connection refused" + type);
            case TLS -> new Classified(FailureKind.TLS_FAILURE, "TLS handshake failed" + type);
            case HANDSHAKE -> {
                if (has(e, EOFException.class)) {
                    yield new Classified(FailureKind.CONNECTION_RESET, "the proxy closed the connection mid-handshake");
                }
                if (has(e, SocketException.class)) {
                    yield new Classified(FailureKind.CONNECTION_RESET, "connection reset mid-handshake" + type);
                }
                if (e instanceof SSLException) {
                    yield new Classified(FailureKind.TLS_FAILURE, "TLS failed mid-handshake" + type);
                }
                yield new Classified(FailureKind.PROTOCOL_ERROR, "handshake failed" + type);
            }
        };
    }

    /**
     * An HTTP(S) proxy's final status to {@code CONNECT} (RFC 9110 §9.3.6). Any 2xx opens the
     * tunnel; 407 is a credential rejection. 500/502/503/504/404 are a working proxy saying it
     * could not reach this target (squid answers 500 for a name that does not resolve, tinyproxy
     * {@code 500 Unable to connect} for any unreachable target) and 403 that its policy refuses this
     * target: both target-side ({@link FailureKind#UPSTREAM_UNREACHABLE}), the 403 also a per-domain
     * ban. Anything else is a protocol error (the proxy refused the tunnel for a reason that is
     * neither).
     *
     * @param status          the final status code (not 1xx)
     * @param credentialsSent whether the request carried {@code Proxy-Authorization}
     * @return null for a 2xx, else the rejection
     */
    public static HandshakeRejected connectStatus(int status, boolean credentialsSent) {
        if (status / 100 == 2) {
            return null;
        }
        return switch (status) {
            case 407 ->
                new HandshakeRejected(
                        FailureKind.PROXY_AUTH_REJECTED,
                        credentialsSent
                                ? "the proxy rejected the credentials (407)"
                                : "the proxy requires credentials (407) and the proxy has no credentialRef");
            case 500, 502, 503, 504, 404 ->
                new HandshakeRejected(
                        FailureKind.UPSTREAM_UNREACHABLE, "the proxy could not reach the target (" + status + ")");
            case 403 ->
                new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "the proxy refused this target (403)", true);
            default -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the proxy refused CONNECT with " + status);
        };
    }

    /**
     * A SOCKS4 reply code: 90 granted; 91 rejected or failed (the proxy could not reach, or would
     * not serve, this target: target-side); 92/93 identd / USERID rejection (credentials).
     *
     * @param code the reply's CD byte
     * @return null for 90, else the rejection
     */
    public static HandshakeRejected socks4Reply(int code) {
        return switch (code) {
            case 90 -> null;
            case 91 ->
                new HandshakeRejected(
                        FailureKind.UPSTREAM_UNREACHABLE,
                        "the proxy rejected the request or could not reach the target (91)");
            case 92, 93 ->
                new HandshakeRejected(FailureKind.PROXY_AUTH_REJECTED, "the proxy rejected the USERID (" + code + ")");
            default -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "unknown SOCKS4 reply code " + code);
        };
    }

    /**
     * RFC 1928 §6 reply codes: 1-6 concern the target (target-side, 2 a per-domain ban); 7 and 8 say
     * the proxy does not speak our request (a proxy fault).
     *
     * @param rep the reply's REP byte
     * @return null for 0 (succeeded), else the rejection
     */
    public static HandshakeRejected socks5Reply(int rep) {
        Socks5Codec.Reply reply = Socks5Codec.Reply.of(rep);
        if (reply == null) {
            return new HandshakeRejected(FailureKind.PROTOCOL_ERROR, Socks5Codec.Reply.describe(rep));
        }
        String reason = reply.meaning() + " (" + rep + ")";
        return switch (reply) {
            case SUCCEEDED -> null;
            // 1: servers use it for a target that does not resolve (microsocks) or cannot be reached; a proxy
            // failing every target is caught by health.passive.distinctTargetFailures
            case GENERAL_FAILURE, NETWORK_UNREACHABLE, HOST_UNREACHABLE, TTL_EXPIRED ->
                new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, reason);
            case NOT_ALLOWED -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, reason, true);
            case CONNECTION_REFUSED ->
                new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "the target refused the connection (5)");
            case COMMAND_NOT_SUPPORTED, ADDRESS_TYPE_NOT_SUPPORTED ->
                new HandshakeRejected(FailureKind.PROTOCOL_ERROR, reason);
        };
    }

    /**
     * A SOCKS5 proxy accepted none of the offered methods ({@code 0xFF}): our credentials are
     * missing or not the kind it wants.
     *
     * @param credentialsSent whether username/password was offered
     * @return the rejection
     */
    public static HandshakeRejected socks5NoMethod(boolean credentialsSent) {
        return new HandshakeRejected(
                FailureKind.PROXY_AUTH_REJECTED,
                credentialsSent
                        ? "the proxy accepted none of the offered authentication methods"
                        : "the proxy requires authentication and the proxy has no credentialRef");
    }

    /**
     * An RFC 1929 status: 0 succeeded, anything else rejects the username/password.
     *
     * @param status the reply's STATUS byte
     * @return null for 0, else the rejection
     */
    public static HandshakeRejected socks5AuthStatus(int status) {
        return status == 0
                ? null
                : new HandshakeRejected(FailureKind.PROXY_AUTH_REJECTED, "the proxy rejected the username/password");
    }

    /**
     * A reply that breaks the protocol: the proxy's fault.
     *
     * @param reason what was wrong
     * @return the rejection
     */
    static HandshakeRejected protocolError(String reason) {
        return new HandshakeRejected(FailureKind.PROTOCOL_ERROR, reason);
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
