package dev.proxypool.testkit;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake SOCKS4 and SOCKS4a proxy (CONNECT only). A request whose DSTIP is {@code 0.0.0.x}
 * ({@code x != 0}) carries a host name after the USERID (4a) which the proxy resolves itself.
 *
 * <p>Replies: {@code 90} granted; {@code 91} rejected or failed (target unreachable, BIND, or a
 * forced reply); {@code 93} USERID mismatch when {@link Builder#requireUserId(String)} is set
 * (SOCKS4's only form of authentication).
 */
public final class FakeSocks4Proxy extends FakeServer {

    private static final Duration TARGET_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final String userId;
    private final int forcedReply;
    private final Map<String, Integer> refusals;
    private final AtomicLong tunnels = new AtomicLong();
    private final AtomicLong domainRequests = new AtomicLong();
    private final AtomicLong rejectedUserIds = new AtomicLong();

    private FakeSocks4Proxy(Builder b) {
        super("fake-socks4-proxy", InetAddress.getLoopbackAddress(), null, b.faults);
        this.userId = b.userId;
        this.forcedReply = b.forcedReply;
        this.refusals = Map.copyOf(b.refusals);
        outboundFrom(b.outboundFrom);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static FakeSocks4Proxy start() {
        return builder().start();
    }

    public Proxy asProxy() {
        return asProxy(CredentialRef.NONE);
    }

    /** This proxy in the core model; SOCKS4 sends the ref's username as USERID. */
    public Proxy asProxy(CredentialRef ref) {
        return Proxy.builder(new ProxyKey(Protocol.SOCKS4, host(), port(), ref)).build();
    }

    /** Granted CONNECT requests. */
    public long tunnels() {
        return tunnels.get();
    }

    /** SOCKS4a requests (target given as a host name). */
    public long domainRequests() {
        return domainRequests.get();
    }

    /** Requests refused with {@code 93} for a wrong USERID. */
    public long rejectedUserIds() {
        return rejectedUserIds.get();
    }

    @Override
    void serve(Connection c) throws IOException {
        InputStream in = c.in();
        if (SocksIo.readByte(in) != 4) {
            return;
        }
        int command = SocksIo.readByte(in);
        byte[] portAndIp = SocksIo.readExactly(in, 6);
        int port = ((portAndIp[0] & 0xFF) << 8) | (portAndIp[1] & 0xFF);
        String user = SocksIo.readNulTerminated(in);
        String host;
        if (portAndIp[2] == 0 && portAndIp[3] == 0 && portAndIp[4] == 0 && portAndIp[5] != 0) {
            host = SocksIo.readNulTerminated(in);
            domainRequests.incrementAndGet();
        } else {
            host = (portAndIp[2] & 0xFF) + "." + (portAndIp[3] & 0xFF) + "." + (portAndIp[4] & 0xFF) + "."
                    + (portAndIp[5] & 0xFF);
        }
        if (userId != null && !userId.equals(user)) {
            rejectedUserIds.incrementAndGet();
            reply(c, 93);
            return;
        }
        int refused = FakeProxyBuilder.refusal(refusals, host);
        if (forcedReply != 0 || refused != 0) {
            reply(c, forcedReply != 0 ? forcedReply : refused);
            return;
        }
        if (command != 1) {
            reply(c, 91);
            return;
        }
        Socket target;
        try {
            target = openOutbound(host, port, TARGET_CONNECT_TIMEOUT);
        } catch (IOException e) {
            reply(c, 91);
            return;
        }
        try {
            tunnels.incrementAndGet();
            reply(c, 90);
            Relay.run(c, target);
        } finally {
            outboundClosed(target);
        }
    }

    private static void reply(Connection c, int code) throws IOException {
        c.out().write(new byte[] {0, (byte) code, 0, 0, 0, 0, 0, 0});
    }

    /** Options of a {@link FakeSocks4Proxy}. */
    public static final class Builder extends FakeProxyBuilder<Builder> {

        @Override
        Builder self() {
            return this;
        }

        private String userId;
        private int forcedReply;

        private Builder() {}

        /** Answers {@code 93} unless the request's USERID equals {@code id}. */
        public Builder requireUserId(String id) {
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("requireUserId needs a non-empty id");
            }
            this.userId = id;
            return this;
        }

        /** Answers every (authorised) request with this reply code (91, 92, 93 or garbage) and closes. */
        public Builder forceReply(int code) {
            if (code < 1 || code > 255) {
                throw new IllegalArgumentException("forceReply must be 1..255, got " + code);
            }
            this.forcedReply = code;
            return this;
        }

        public FakeSocks4Proxy start() {
            FakeSocks4Proxy p = new FakeSocks4Proxy(this);
            p.begin();
            return p;
        }
    }
}
