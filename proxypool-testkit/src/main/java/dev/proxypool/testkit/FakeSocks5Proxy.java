package dev.proxypool.testkit;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.wire.Socks5Codec;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake SOCKS5 proxy (RFC 1928): the CONNECT command with IPv4, domain-name and IPv6 address
 * types, and either no authentication or username/password (RFC 1929).
 *
 * <p>Method selection: with credentials configured only {@code 0x02} is acceptable (else
 * {@code 0xFF} and close); without, {@code 0x00} is chosen if offered, otherwise {@code 0x02} with
 * any credentials. A wrong username/password gets status {@code 0x01} and a close. Replies to the
 * request: {@code 0x00} success (bound address of the outbound socket), {@code 0x05} target
 * refused, {@code 0x04} host unreachable/unresolvable/timed out, {@code 0x01} other failures,
 * {@code 0x07} command not supported, {@code 0x08} address type not supported.
 */
public final class FakeSocks5Proxy extends FakeServer {

    /** The address type of a request (ATYP). */
    public enum AddressType {
        IPV4,
        DOMAIN,
        IPV6
    }

    private static final Duration TARGET_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final String username;
    private final String password;
    private final int forcedReply;
    private final Map<String, Integer> refusals;
    private final AtomicLong tunnels = new AtomicLong();
    private final AtomicLong authFailures = new AtomicLong();
    private final AtomicLong[] byType = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

    private FakeSocks5Proxy(Builder b) {
        super("fake-socks5-proxy", InetAddress.getLoopbackAddress(), null, b.faults);
        this.username = b.username;
        this.password = b.password;
        this.forcedReply = b.forcedReply;
        this.refusals = Map.copyOf(b.refusals);
        outboundFrom(b.outboundFrom);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static FakeSocks5Proxy start() {
        return builder().start();
    }

    public Proxy asProxy() {
        return asProxy(CredentialRef.NONE);
    }

    public Proxy asProxy(CredentialRef ref) {
        return Proxy.builder(new ProxyKey(Protocol.SOCKS5, host(), port(), ref)).build();
    }

    public long tunnels() {
        return tunnels.get();
    }

    /** Username/password sub-negotiations that failed. */
    public long authFailures() {
        return authFailures.get();
    }

    /** CONNECT requests seen with this address type. */
    public long requests(AddressType type) {
        return byType[type.ordinal()].get();
    }

    @Override
    void serve(Connection c) throws IOException {
        InputStream in = c.in();
        Socks5Codec.Greeting greeting = Socks5Codec.read(in, Socks5Codec::decodeGreeting);
        if (greeting.version() != Socks5Codec.VERSION) {
            return;
        }
        boolean offersNone = greeting.offers(Socks5Codec.METHOD_NONE);
        boolean offersUserPass = greeting.offers(Socks5Codec.METHOD_USER_PASSWORD);
        int method = username != null
                ? (offersUserPass ? Socks5Codec.METHOD_USER_PASSWORD : Socks5Codec.METHOD_NO_ACCEPTABLE)
                : offersNone
                        ? Socks5Codec.METHOD_NONE
                        : offersUserPass ? Socks5Codec.METHOD_USER_PASSWORD : Socks5Codec.METHOD_NO_ACCEPTABLE;
        c.out().write(Socks5Codec.methodChoice(method));
        if (method == Socks5Codec.METHOD_NO_ACCEPTABLE) {
            return;
        }
        if (method == Socks5Codec.METHOD_USER_PASSWORD && !authenticate(c)) {
            return;
        }
        Socks5Codec.Message request = Socks5Codec.read(in, Socks5Codec::decodeMessage);
        if (request.version() != Socks5Codec.VERSION) {
            return;
        }
        if (!request.whole()) {
            reply(c, Socks5Codec.Reply.ADDRESS_TYPE_NOT_SUPPORTED.code(), null);
            return;
        }
        String host = request.host();
        switch (request.addressType()) {
            case Socks5Codec.ATYP_IPV4 -> byType[AddressType.IPV4.ordinal()].incrementAndGet();
            case Socks5Codec.ATYP_DOMAIN -> byType[AddressType.DOMAIN.ordinal()].incrementAndGet();
            default -> byType[AddressType.IPV6.ordinal()].incrementAndGet();
        }
        int refused = FakeProxyBuilder.refusal(refusals, host);
        if (forcedReply != 0 || refused != 0) {
            reply(c, forcedReply != 0 ? forcedReply : refused, null);
            return;
        }
        if (request.code() != Socks5Codec.CMD_CONNECT) {
            reply(c, Socks5Codec.Reply.COMMAND_NOT_SUPPORTED.code(), null);
            return;
        }
        Socket target;
        try {
            target = openOutbound(host, request.port(), TARGET_CONNECT_TIMEOUT);
        } catch (IOException e) {
            reply(c, SocksIo.socks5Reply(e), null);
            return;
        }
        try {
            tunnels.incrementAndGet();
            reply(c, Socks5Codec.Reply.SUCCEEDED.code(), target);
            Relay.run(c, target);
        } finally {
            outboundClosed(target);
        }
    }

    private boolean authenticate(Connection c) throws IOException {
        Socks5Codec.AuthRequest auth = Socks5Codec.read(c.in(), Socks5Codec::decodeAuthRequest);
        if (auth.version() != Socks5Codec.AUTH_VERSION) {
            return false;
        }
        String user = new String(auth.username(), StandardCharsets.UTF_8);
        String pass = new String(auth.password(), StandardCharsets.UTF_8);
        boolean ok = username == null || (username.equals(user) && password.equals(pass));
        if (!ok) {
            authFailures.incrementAndGet(); // before the reply: a client that read it sees the count
        }
        c.out().write(Socks5Codec.authStatus(ok));
        return ok;
    }

    private static void reply(Connection c, int code, Socket bound) throws IOException {
        c.out()
                .write(
                        bound == null
                                ? Socks5Codec.reply(code)
                                : Socks5Codec.reply(
                                        code, bound.getLocalAddress().getAddress(), bound.getLocalPort()));
    }

    /** Options of a {@link FakeSocks5Proxy}. */
    public static final class Builder extends FakeProxyBuilder<Builder> {

        @Override
        Builder self() {
            return this;
        }

        private String username;
        private String password;
        private int forcedReply;

        private Builder() {}

        /** Requires RFC 1929 username/password authentication with these credentials. */
        public Builder userPass(String user, String pass) {
            if (user == null || user.isEmpty() || pass == null) {
                throw new IllegalArgumentException("userPass needs a non-empty username and a password");
            }
            this.username = user;
            this.password = pass;
            return this;
        }

        /** Answers every (authenticated) request with this reply code and closes. */
        public Builder forceReply(int code) {
            if (code < 1 || code > 255) {
                throw new IllegalArgumentException("forceReply must be 1..255, got " + code);
            }
            this.forcedReply = code;
            return this;
        }

        public FakeSocks5Proxy start() {
            FakeSocks5Proxy p = new FakeSocks5Proxy(this);
            p.begin();
            return p;
        }
    }
}
