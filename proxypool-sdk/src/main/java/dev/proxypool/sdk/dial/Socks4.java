package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.credentials.Credentials;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The SOCKS4 CONNECT handshake; SOCKS4a (DSTIP {@code 0.0.0.1} plus a host name) when the target
 * is a name, so the proxy resolves it. SOCKS4 knows no password: a credential's username is sent
 * as USERID, its password is not used. Replies: 90 granted; 91 rejected or failed (the proxy could
 * not reach, or would not serve, this target: target-side); 92/93 identd / USERID rejection
 * (credentials).
 */
final class Socks4 {

    static final int MAX_FIELD = 255;

    private Socks4() {}

    static boolean supports(Target target) {
        return target.kind() != Target.Kind.IPV6;
    }

    static void handshake(HandshakeIo io, Target target, Credentials credentials) throws IOException {
        io.write(request(target, credentials));
        byte[] reply = io.readExactly(8);
        if (reply[0] != 0 && reply[0] != 4) {
            throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "the reply is not SOCKS4");
        }
        int code = reply[1] & 0xFF;
        switch (code) {
            case 90 -> {}
            case 91 ->
                throw new HandshakeRejected(
                        FailureKind.UPSTREAM_UNREACHABLE,
                        "the proxy rejected the request or could not reach the target (91)");
            case 92, 93 ->
                throw new HandshakeRejected(
                        FailureKind.PROXY_AUTH_REJECTED, "the proxy rejected the USERID (" + code + ")");
            default -> throw new HandshakeRejected(FailureKind.PROTOCOL_ERROR, "unknown SOCKS4 reply code " + code);
        }
    }

    static byte[] request(Target target, Credentials credentials) {
        ByteArrayOutputStream r = new ByteArrayOutputStream(32);
        r.write(4);
        r.write(1);
        r.write(target.port() >>> 8);
        r.write(target.port());
        boolean named = target.kind() == Target.Kind.DOMAIN;
        r.writeBytes(named ? new byte[] {0, 0, 0, 1} : target.address());
        if (credentials != null) {
            r.writeBytes(userId(credentials));
        }
        r.write(0);
        if (named) {
            r.writeBytes(target.address());
            r.write(0);
        }
        return r.toByteArray();
    }

    static byte[] userId(Credentials credentials) {
        return credentials.username().getBytes(StandardCharsets.UTF_8);
    }
}
