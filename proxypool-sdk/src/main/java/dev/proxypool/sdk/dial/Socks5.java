package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.credentials.Credentials;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The SOCKS5 CONNECT handshake (RFC 1928) with username/password authentication (RFC 1929).
 * Without credentials only "no authentication" is offered; with credentials both it and
 * username/password are (a provider may allow-list our address). The target goes as an IPv4 or
 * IPv6 address or as a domain name (the proxy resolves it). Three round trips with
 * authentication, two without.
 */
final class Socks5 {

    static final int MAX_FIELD = 255;
    private static final int NO_AUTH = 0x00;
    private static final int USER_PASS = 0x02;
    private static final int NONE_ACCEPTABLE = 0xFF;

    private Socks5() {}

    static void handshake(HandshakeIo io, Target target, Credentials credentials) throws IOException {
        io.write(credentials == null ? new byte[] {5, 1, NO_AUTH} : new byte[] {5, 2, NO_AUTH, USER_PASS});
        byte[] choice = io.readExactly(2);
        if (choice[0] != 5) {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not SOCKS5");
        }
        int method = choice[1] & 0xFF;
        if (method == NONE_ACCEPTABLE) {
            throw new HandshakeRejected(
                    FailureKind.PROXY_AUTH_REJECTED,
                    credentials == null
                            ? "the proxy requires authentication and the proxy has no credentialRef"
                            : "the proxy accepted none of the offered authentication methods");
        }
        if (method == USER_PASS && credentials != null) {
            authenticate(io, credentials);
        } else if (method != NO_AUTH) {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the proxy chose a method not offered: " + method);
        }
        io.write(request(target));
        byte[] head = io.readExactly(4);
        if (head[0] != 5) {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not SOCKS5");
        }
        int rep = head[1] & 0xFF;
        int addressLength = switch (head[3]) {
            case 1 -> 4;
            case 4 -> 16;
            case 3 -> io.readByte();
            default -> throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "bad address type in the reply");
        };
        io.readExactly(addressLength + 2); // bound address and port: consumed, not used
        if (rep != 0) {
            throw replyFailure(rep);
        }
    }

    private static void authenticate(HandshakeIo io, Credentials credentials) throws IOException {
        byte[] user = credentials.username().getBytes(StandardCharsets.UTF_8);
        byte[] pass = credentials.password().reveal().getBytes(StandardCharsets.UTF_8);
        byte[] msg = new byte[3 + user.length + pass.length];
        msg[0] = 1;
        msg[1] = (byte) user.length;
        System.arraycopy(user, 0, msg, 2, user.length);
        msg[2 + user.length] = (byte) pass.length;
        System.arraycopy(pass, 0, msg, 3 + user.length, pass.length);
        io.write(msg);
        Arrays.fill(msg, (byte) 0);
        byte[] status = io.readExactly(2);
        if (status[0] != 1 && status[0] != 5) {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the authentication reply is not RFC 1929");
        }
        if (status[1] != 0) {
            throw new HandshakeRejected(FailureKind.PROXY_AUTH_REJECTED, "the proxy rejected the username/password");
        }
    }

    static byte[] request(Target target) {
        ByteArrayOutputStream r = new ByteArrayOutputStream(32);
        r.writeBytes(new byte[] {5, 1, 0});
        switch (target.kind()) {
            case IPV4 -> r.write(1);
            case IPV6 -> r.write(4);
            case DOMAIN -> {
                r.write(3);
                r.write(target.address().length);
            }
        }
        r.writeBytes(target.address());
        r.write(target.port() >>> 8);
        r.write(target.port());
        return r.toByteArray();
    }

    /**
     * RFC 1928 §6 reply codes: 1-6 concern the target (target-side, 2 a per-domain ban); 7 and 8 say
     * the proxy does not speak our request (a proxy fault).
     */
    static HandshakeRejected replyFailure(int rep) {
        return switch (rep) {
            // 1: servers use it for a target that does not resolve (microsocks) or cannot be reached; a proxy
            // failing every target is caught by health.passive.distinctTargetFailures
            case 1 -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "general SOCKS server failure (1)");
            case 2 ->
                new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "connection not allowed by ruleset (2)", true);
            case 3 -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "network unreachable (3)");
            case 4 -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "host unreachable (4)");
            case 5 -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "the target refused the connection (5)");
            case 6 -> new HandshakeRejected(FailureKind.UPSTREAM_UNREACHABLE, "TTL expired (6)");
            case 7 -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "command not supported (7)");
            case 8 -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "address type not supported (8)");
            default -> new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "unknown SOCKS5 reply code " + rep);
        };
    }
}
