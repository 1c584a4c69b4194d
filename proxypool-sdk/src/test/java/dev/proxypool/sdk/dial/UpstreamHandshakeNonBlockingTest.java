package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.RawHttp;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The codec driven the way an event loop drives it: one non-blocking channel, a selector, a small
 * read buffer (so replies arrive in pieces), through the test kit's proxies to a real origin; then
 * an HTTP exchange through the tunnel. The same codec the blocking dialer runs.
 */
class UpstreamHandshakeNonBlockingTest {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Opens the tunnel on a non-blocking channel; returns it in blocking mode, with what followed the reply. */
    private static SocketChannel tunnel(InetSocketAddress proxy, UpstreamHandshake h, ByteBuffer early)
            throws IOException {
        SocketChannel ch = SocketChannel.open();
        try (Selector selector = Selector.open()) {
            ch.configureBlocking(false);
            ch.connect(proxy);
            SelectionKey key = ch.register(selector, SelectionKey.OP_CONNECT);
            ByteBuffer out = ByteBuffer.allocate(0);
            ByteBuffer in = ByteBuffer.allocate(7);
            long end = System.nanoTime() + DEADLINE_NANOS;
            while (!h.open()) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException("handshake deadline passed");
                }
                selector.select(left);
                selector.selectedKeys().clear();
                if (!ch.isConnected() && !ch.finishConnect()) {
                    continue;
                }
                if (!out.hasRemaining()) {
                    out = ByteBuffer.wrap(h.output());
                }
                ch.write(out);
                int r = ch.read(in);
                if (r < 0) {
                    throw new IOException("the proxy closed the connection mid-handshake");
                }
                if (r > 0) {
                    in.flip();
                    boolean open = h.input(in);
                    assertTrue(open || !in.hasRemaining(), "not open: every byte consumed");
                    early.put(in);
                    in.clear();
                    if (!out.hasRemaining()) {
                        out = ByteBuffer.wrap(h.output()); // the next message a reply called for
                    }
                }
                key.interestOps(SelectionKey.OP_READ | (out.hasRemaining() ? SelectionKey.OP_WRITE : 0));
            }
            key.cancel();
        } catch (IOException | RuntimeException | Error e) {
            ch.close();
            throw e;
        }
        ch.configureBlocking(true);
        early.flip();
        return ch;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ProxyKind.class,
            names = {"HTTP", "HTTP_AUTH", "SOCKS4", "SOCKS4_USERID", "SOCKS5", "SOCKS5_AUTH"})
    void aLoopOpensTheTunnelAndTheOriginAnswersThroughIt(ProxyKind kind) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start()) {
            Credentials creds = kind.auth ? Credentials.of(ProxyKind.USER, ProxyKind.PASSWORD) : null;
            for (String host : new String[] {"127.0.0.1", "localhost"}) {
                UpstreamHandshake h = UpstreamHandshake.tunnel(kind.protocol, Target.of(host, origin.port()), creds);
                ByteBuffer early = ByteBuffer.allocate(64);
                try (SocketChannel ch = tunnel(fake.address(), h, early)) {
                    assertEquals(0, early.remaining(), "the origin speaks second: nothing behind the reply");
                    RawHttp.Response r = RawHttp.get(ch.socket(), origin.authority(), "/echo");
                    assertEquals(200, r.status());
                    assertEquals(origin.host(), r.echo().ip());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ProxyKind.class,
            names = {"HTTP_AUTH", "SOCKS5_AUTH"})
    void aWrongPasswordIsTheSameRejectionAsOnTheBlockingPath(ProxyKind kind) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start()) {
            UpstreamHandshake h = UpstreamHandshake.tunnel(
                    kind.protocol, Target.of("127.0.0.1", origin.port()), Credentials.of(ProxyKind.USER, "wrong"));
            HandshakeRejected e = assertThrows(
                    HandshakeRejected.class,
                    () -> tunnel(fake.address(), h, ByteBuffer.allocate(64)).close());
            assertEquals(FailureKind.PROXY_AUTH_REJECTED, e.kind());
            DialException blocking = assertThrows(
                    DialException.class,
                    () -> ProxyKind.dialer().connect(kind.proxy(fake, ProxyKind.WRONG), "127.0.0.1", origin.port()));
            assertEquals(e.kind(), blocking.kind());
            assertTrue(blocking.getMessage().endsWith(e.getMessage()), blocking.getMessage());
        }
    }

    @Test
    void aTargetSideRefusalKeepsItsDomainBan() throws Exception {
        try (FakeServer fake = FakeSocks5Proxy.builder().forceReply(2).start()) {
            UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS5, Target.of("example.com", 443), null);
            HandshakeRejected e = assertThrows(
                    HandshakeRejected.class,
                    () -> tunnel(fake.address(), h, ByteBuffer.allocate(64)).close());
            assertEquals(FailureKind.UPSTREAM_UNREACHABLE, e.kind());
            assertTrue(e.destinationForbidden());
        }
    }
}
