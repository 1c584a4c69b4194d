package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.credentials.Credentials;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code CONNECT} handshake with an HTTP(S) proxy (RFC 9110 §9.3.6). Any 2xx opens the tunnel
 * (its Content-Length/Transfer-Encoding are ignored, as the RFC requires); 407 is a credential
 * rejection. 500/502/503/504/404 are a working proxy saying it could not reach this target (squid
 * answers 500 for a name that does not resolve, tinyproxy {@code 500 Unable to connect} for any
 * unreachable target) and 403 that its policy refuses this target: both target-side
 * ({@link FailureKind#UPSTREAM_UNREACHABLE}), the 403 also a per-domain ban. Anything else is a
 * protocol error (the proxy refused the tunnel for a reason that is neither).
 */
final class HttpConnect {

    private static final int MAX_INTERIM = 4;

    private HttpConnect() {}

    static void handshake(HandshakeIo io, Target target, Credentials credentials) throws IOException {
        StringBuilder req = new StringBuilder(128)
                .append("CONNECT ")
                .append(target.authority())
                .append(" HTTP/1.1\r\n")
                .append("Host: ")
                .append(target.authority())
                .append("\r\n");
        if (credentials != null) {
            req.append("Proxy-Authorization: ")
                    .append(credentials.basicAuthorization().reveal())
                    .append("\r\n");
        }
        io.write(req.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        int status = status(io.readHttpHead());
        for (int interim = 0; status / 100 == 1 && interim < MAX_INTERIM; interim++) {
            status = status(io.readHttpHead()); // 1xx interim replies precede the real one
        }
        if (status / 100 == 2) {
            return;
        }
        throw switch (status) {
            case 407 ->
                new HandshakeRejected(
                        FailureKind.PROXY_AUTH_REJECTED,
                        credentials == null
                                ? "the proxy requires credentials (407) and the proxy has no credentialRef"
                                : "the proxy rejected the credentials (407)");
            case 500, 502, 503, 504, 404 ->
                new HandshakeRejected(
                        FailureKind.UPSTREAM_UNREACHABLE, "the proxy could not reach the target (" + status + ")");
            case 403 ->
                new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "the proxy refused this target (403)", true);
            default -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the proxy refused CONNECT with " + status);
        };
    }

    /** The status code of {@code HTTP/1.x SSS ...}; anything else is not an HTTP proxy. */
    static int status(byte[] head) throws HandshakeRejected {
        // "HTTP/1.1 200" is 12 bytes
        if (head.length < 12 || !startsWith(head, "HTTP/1.") || head[8] != ' ') {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not HTTP");
        }
        int s = 0;
        for (int i = 9; i < 12; i++) {
            if (head[i] < '0' || head[i] > '9') {
                throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply has no HTTP status code");
            }
            s = s * 10 + (head[i] - '0');
        }
        if (head.length > 12 && head[12] != ' ' && head[12] != '\r' && head[12] != '\n') {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply has no HTTP status code");
        }
        return s;
    }

    private static boolean startsWith(byte[] b, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (b[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
