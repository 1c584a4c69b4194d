package dev.proxypool.sdk.dial;

import static dev.proxypool.core.wire.Socks5Codec.ATYP_DOMAIN;
import static dev.proxypool.core.wire.Socks5Codec.ATYP_IPV4;
import static dev.proxypool.core.wire.Socks5Codec.ATYP_IPV6;
import static dev.proxypool.core.wire.Socks5Codec.CMD_CONNECT;
import static dev.proxypool.core.wire.Socks5Codec.METHOD_NONE;
import static dev.proxypool.core.wire.Socks5Codec.METHOD_NO_ACCEPTABLE;
import static dev.proxypool.core.wire.Socks5Codec.METHOD_USER_PASSWORD;
import static dev.proxypool.core.wire.Socks5Codec.VERSION;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.Socks5Codec;
import dev.proxypool.sdk.credentials.Credentials;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The SOCKS5 CONNECT handshake (RFC 1928) with username/password authentication (RFC 1929), a
 * state of {@link UpstreamHandshake}. Without credentials only "no authentication" is offered;
 * with credentials both it and username/password are (a provider may allow-list our address). The
 * target goes as an IPv4 or IPv6 address or as a domain name (the proxy resolves it). Three round
 * trips with authentication, two without. The messages are the shared codec's
 * ({@link Socks5Codec}); replies are judged by {@link Failures}.
 */
final class Socks5 implements UpstreamHandshake.Phase {

    private enum Step {
        METHOD,
        AUTH,
        REPLY
    }

    private final Target target;
    private final Credentials credentials;
    /** The reply being read: the method choice, the RFC 1929 status, or the request's reply. */
    private final byte[] reply = new byte[4 + 1 + 255 + 2];

    private int have;
    private Step step = Step.METHOD;

    Socks5(Target target, Credentials credentials) {
        this.target = target;
        this.credentials = credentials;
    }

    @Override
    public byte[] start() {
        return credentials == null
                ? Socks5Codec.greeting(METHOD_NONE)
                : Socks5Codec.greeting(METHOD_NONE, METHOD_USER_PASSWORD);
    }

    @Override
    public boolean input(ByteBuffer in, UpstreamHandshake out) throws HandshakeRejected {
        while (in.hasRemaining()) {
            int n = Math.min(in.remaining(), wanted());
            in.get(reply, have, n);
            have += n;
            if (wanted() > 0) {
                continue;
            }
            ByteBuffer message = ByteBuffer.wrap(reply, 0, have);
            have = 0;
            try {
                switch (step) {
                    case METHOD -> {
                        int method = Socks5Codec.decodeMethodChoice(message);
                        if (method == METHOD_NO_ACCEPTABLE) {
                            throw Failures.socks5NoMethod(credentials != null);
                        }
                        if (method == METHOD_USER_PASSWORD && credentials != null) {
                            out.send(authentication(credentials));
                            step = Step.AUTH;
                        } else if (method == METHOD_NONE) {
                            out.send(request(target));
                            step = Step.REPLY;
                        } else {
                            throw Failures.protocolError("the proxy chose a method not offered: " + method);
                        }
                    }
                    case AUTH -> {
                        HandshakeRejected refused = Failures.socks5AuthStatus(Socks5Codec.decodeAuthStatus(message));
                        if (refused != null) {
                            throw refused;
                        }
                        out.send(request(target));
                        step = Step.REPLY;
                    }
                    case REPLY -> { // the bound address and port: read, not used
                        Socks5Codec.Message r = Socks5Codec.decodeMessage(message);
                        if (r.version() != VERSION) {
                            throw Failures.protocolError("the reply is not SOCKS5");
                        }
                        if (!r.whole()) {
                            throw Failures.protocolError("bad address type in the reply");
                        }
                        HandshakeRejected refused = Failures.socks5Reply(r.code());
                        if (refused != null) {
                            throw refused;
                        }
                        return true;
                    }
                }
            } catch (HeadException e) {
                throw Failures.protocolError(e.getMessage());
            }
        }
        return false;
    }

    @Override
    public int wanted() {
        return step == Step.REPLY ? Socks5Codec.missing(ByteBuffer.wrap(reply, 0, have)) : 2 - have;
    }

    private static byte[] authentication(Credentials credentials) {
        byte[] user = credentials.username().getBytes(StandardCharsets.UTF_8);
        byte[] pass = credentials.password().reveal().getBytes(StandardCharsets.UTF_8);
        byte[] msg = Socks5Codec.authRequest(user, pass);
        Socks5Codec.wipe(pass);
        return msg;
    }

    static byte[] request(Target target) {
        int type = switch (target.kind()) {
            case IPV4 -> ATYP_IPV4;
            case IPV6 -> ATYP_IPV6;
            case DOMAIN -> ATYP_DOMAIN;
        };
        return Socks5Codec.request(CMD_CONNECT, type, target.address(), target.port());
    }
}
