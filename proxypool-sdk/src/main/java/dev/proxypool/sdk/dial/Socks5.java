package dev.proxypool.sdk.dial;

import dev.proxypool.sdk.credentials.Credentials;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The SOCKS5 CONNECT handshake (RFC 1928) with username/password authentication (RFC 1929), a
 * state of {@link UpstreamHandshake}. Without credentials only "no authentication" is offered;
 * with credentials both it and username/password are (a provider may allow-list our address). The
 * target goes as an IPv4 or IPv6 address or as a domain name (the proxy resolves it). Three round
 * trips with authentication, two without. Replies are judged by {@link Failures}.
 */
final class Socks5 implements UpstreamHandshake.Phase {

    private static final int NO_AUTH = 0x00;
    private static final int USER_PASS = 0x02;
    private static final int NONE_ACCEPTABLE = 0xFF;

    private enum Step {
        METHOD,
        AUTH,
        REPLY,
        DOMAIN_LENGTH,
        ADDRESS
    }

    private final Target target;
    private final Credentials credentials;
    private final UpstreamHandshake.Fixed message = new UpstreamHandshake.Fixed();
    private Step step = Step.METHOD;
    private int rep;

    Socks5(Target target, Credentials credentials) {
        this.target = target;
        this.credentials = credentials;
        message.expect(2);
    }

    @Override
    public byte[] start() {
        return credentials == null ? new byte[] {5, 1, NO_AUTH} : new byte[] {5, 2, NO_AUTH, USER_PASS};
    }

    @Override
    public boolean input(ByteBuffer in, UpstreamHandshake out) throws HandshakeRejected {
        while (message.fill(in)) {
            switch (step) {
                case METHOD -> {
                    if (message.at(0) != 5) {
                        throw Failures.protocolError("the reply is not SOCKS5");
                    }
                    int method = message.at(1);
                    if (method == NONE_ACCEPTABLE) {
                        throw Failures.socks5NoMethod(credentials != null);
                    }
                    if (method == USER_PASS && credentials != null) {
                        out.send(authentication(credentials));
                        next(Step.AUTH, 2);
                    } else if (method == NO_AUTH) {
                        out.send(request(target));
                        next(Step.REPLY, 4);
                    } else {
                        throw Failures.protocolError("the proxy chose a method not offered: " + method);
                    }
                }
                case AUTH -> {
                    if (message.at(0) != 1 && message.at(0) != 5) {
                        throw Failures.protocolError("the authentication reply is not RFC 1929");
                    }
                    HandshakeRejected refused = Failures.socks5AuthStatus(message.at(1));
                    if (refused != null) {
                        throw refused;
                    }
                    out.send(request(target));
                    next(Step.REPLY, 4);
                }
                case REPLY -> {
                    if (message.at(0) != 5) {
                        throw Failures.protocolError("the reply is not SOCKS5");
                    }
                    rep = message.at(1);
                    switch (message.at(3)) {
                        case 1 -> next(Step.ADDRESS, 4 + 2);
                        case 4 -> next(Step.ADDRESS, 16 + 2);
                        case 3 -> next(Step.DOMAIN_LENGTH, 1);
                        default -> throw Failures.protocolError("bad address type in the reply");
                    }
                }
                case DOMAIN_LENGTH -> next(Step.ADDRESS, message.at(0) + 2);
                case ADDRESS -> { // bound address and port: consumed, not used
                    HandshakeRejected refused = Failures.socks5Reply(rep);
                    if (refused != null) {
                        throw refused;
                    }
                    return true;
                }
            }
        }
        return false;
    }

    private void next(Step s, int size) {
        step = s;
        message.expect(size);
    }

    @Override
    public int wanted() {
        return message.missing();
    }

    private static byte[] authentication(Credentials credentials) {
        byte[] user = credentials.username().getBytes(StandardCharsets.UTF_8);
        byte[] pass = credentials.password().reveal().getBytes(StandardCharsets.UTF_8);
        byte[] msg = new byte[3 + user.length + pass.length];
        msg[0] = 1;
        msg[1] = (byte) user.length;
        System.arraycopy(user, 0, msg, 2, user.length);
        msg[2 + user.length] = (byte) pass.length;
        System.arraycopy(pass, 0, msg, 3 + user.length, pass.length);
        Arrays.fill(pass, (byte) 0);
        return msg;
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
}
