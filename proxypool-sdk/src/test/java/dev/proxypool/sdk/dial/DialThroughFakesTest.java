package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.testkit.EchoResponse;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestTls;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every protocol, with and without auth, through the test kit's fakes to a real origin. */
class DialThroughFakesTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    static Stream<Arguments> kindsAndTargets() {
        List<Arguments> cases = new ArrayList<>();
        for (ProxyKind kind : ProxyKind.values()) {
            cases.add(Arguments.of(kind, "127.0.0.1"));
            cases.add(Arguments.of(kind, "localhost"));
            if (kind.protocol != Protocol.SOCKS4) {
                cases.add(Arguments.of(kind, "::1"));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} to {1}")
    @MethodSource("kindsAndTargets")
    void echoThroughTheTunnel(ProxyKind kind, String targetHost) throws Exception {
        FakeOrigin.Builder ob = FakeOrigin.builder();
        try (FakeOrigin origin = (targetHost.equals("::1") ? ob.ipv6() : ob).start();
                FakeServer fake = kind.start()) {
            try (Socket tunnel = ProxyKind.dialer().connect(kind.proxy(fake), targetHost, origin.port())) {
                assertEquals(0, tunnel.getSoTimeout(), "no read timeout left behind");
                RawHttp.Response r = RawHttp.get(tunnel, origin.authority(), "/echo");
                assertEquals(200, r.status());
                EchoResponse echo = r.echo();
                assertEquals(origin.host(), echo.ip());
                assertEquals(origin.authority(), echo.header("Host"));
                if (kind.protocol == Protocol.HTTPS) {
                    assertInstanceOf(SSLSocket.class, tunnel);
                }
            }
            assertTrue(fake.awaitIdle(IDLE), "proxy connections leaked");
            assertTrue(origin.awaitIdle(IDLE), "origin connections leaked");
            assertEquals(1, fake.acceptedConnections());
        }
    }

    @Test
    void socks5SendsTheAddressTypeOfTheTarget() throws Exception {
        try (FakeOrigin v4 = FakeOrigin.start();
                FakeOrigin v6 = FakeOrigin.builder().ipv6().start();
                FakeSocks5Proxy proxy = FakeSocks5Proxy.start()) {
            UpstreamDialer dialer = ProxyKind.dialer();
            dialer.connect(proxy.asProxy(), "127.0.0.1", v4.port()).close();
            dialer.connect(proxy.asProxy(), "localhost", v4.port()).close();
            dialer.connect(proxy.asProxy(), "[::1]", v6.port()).close();
            for (FakeSocks5Proxy.AddressType t : FakeSocks5Proxy.AddressType.values()) {
                assertEquals(1, proxy.requests(t), t.name());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void tlsOriginInsideTheTunnel(ProxyKind kind) throws Exception {
        try (FakeOrigin origin = FakeOrigin.builder().tls().start();
                FakeServer fake = kind.start();
                Socket tunnel = ProxyKind.dialer().connect(kind.proxy(fake), "127.0.0.1", origin.port());
                SSLSocket tls = (SSLSocket) TestTls.clientContext()
                        .getSocketFactory()
                        .createSocket(tunnel, "127.0.0.1", origin.port(), true)) {
            tls.startHandshake();
            RawHttp.Response r = RawHttp.get(tls, origin.authority(), "/echo");
            assertEquals(200, r.status());
            assertEquals("127.0.0.1", r.echo().ip());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ProxyKind.class,
            names = {"HTTP", "HTTP_AUTH", "HTTPS", "HTTPS_AUTH"})
    void forwardingInjectsProxyAuthorization(ProxyKind kind) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start();
                ForwardingConnection fwd = ProxyKind.dialer().openForwarding(kind.proxy(fake))) {
            assertEquals(kind.auth, fwd.hasProxyAuthorization());
            assertFalse(fwd.toString().contains(ProxyKind.PASSWORD));
            InputStream in = RawHttp.buffered(fwd.socket());
            for (int i = 0; i < 2; i++) { // keep-alive: the same connection serves both
                String auth = fwd.hasProxyAuthorization()
                        ? "Proxy-Authorization: " + fwd.proxyAuthorization().reveal() + "\r\n"
                        : "";
                RawHttp.Response r = RawHttp.exchange(
                        in,
                        fwd.socket().getOutputStream(),
                        "GET " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n" + auth
                                + "\r\n",
                        false);
                assertEquals(200, r.status());
                assertEquals(null, r.echo().header("Proxy-Authorization"));
            }
            assertEquals(1, fake.acceptedConnections());
            assertEquals(2, ((FakeHttpProxy) fake).forwardedRequests());
        }
    }

    @Test
    void forwardingNeedsAnHttpProxy() {
        try (FakeSocks5Proxy proxy = FakeSocks5Proxy.start()) {
            assertThrows(
                    IllegalArgumentException.class, () -> ProxyKind.dialer().openForwarding(proxy.asProxy()));
        }
    }

    @Test
    void socks4CannotReachIpv6Targets() {
        assertFalse(UpstreamDialer.supports(Protocol.SOCKS4, "::1"));
        assertTrue(UpstreamDialer.supports(Protocol.SOCKS4, "example.com"));
        assertTrue(UpstreamDialer.supports(Protocol.SOCKS5, "::1"));
        try (FakeServer fake = ProxyKind.SOCKS4.start()) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> ProxyKind.dialer().connect(ProxyKind.SOCKS4.proxy(fake), "::1", 80));
            assertEquals(0, fake.acceptedConnections());
        }
    }
}
