package dev.proxypool.sdk.dial;

import dev.proxypool.sdk.credentials.Credentials;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The SOCKS4 CONNECT handshake, a state of {@link UpstreamHandshake}; SOCKS4a (DSTIP
 * {@code 0.0.0.1} plus a host name) when the target is a name, so the proxy resolves it. SOCKS4
 * knows no password: a credential's username is sent as USERID, its password is not used. One
 * 8-byte reply, judged by {@link Failures#socks4Reply}.
 */
final class Socks4 implements UpstreamHandshake.Phase {

    private final Target target;
    private final Credentials credentials;
    private final UpstreamHandshake.Fixed reply = new UpstreamHandshake.Fixed();

    Socks4(Target target, Credentials credentials) {
        this.target = target;
        this.credentials = credentials;
        reply.expect(8);
    }

    static boolean supports(Target target) {
        return target.kind() != Target.Kind.IPV6;
    }

    @Override
    public byte[] start() {
        return request(target, credentials);
    }

    @Override
    public boolean input(ByteBuffer in, UpstreamHandshake out) throws HandshakeRejected {
        if (!reply.fill(in)) {
            return false;
        }
        if (reply.at(0) != 0 && reply.at(0) != 4) {
            throw Failures.protocolError("the reply is not SOCKS4");
        }
        HandshakeRejected refused = Failures.socks4Reply(reply.at(1));
        if (refused != null) {
            throw refused;
        }
        return true;
    }

    @Override
    public int wanted() {
        return reply.missing();
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
