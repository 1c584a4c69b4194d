package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Fakes bound to another loopback address for their outbound side: the origin sees that address as the exit. */
class OutboundAddressTest {

    private static final Duration IDLE = Duration.ofSeconds(5);
    private static final InetAddress SECOND_LOOPBACK = InetAddress.ofLiteral("127.0.0.2");

    @Test
    void httpProxyForwardsFromTheConfiguredAddress() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy =
                        FakeHttpProxy.builder().outboundFrom(SECOND_LOOPBACK).start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            RawHttp.Response r = RawHttp.get(s, origin.authority(), origin.url("/echo"));
            assertEquals("127.0.0.2", r.echo().ip());
            assertEquals(SECOND_LOOPBACK, proxy.outboundAddress().orElseThrow());
        }
    }

    @Test
    void withoutTheOptionTheExitIsTheDefaultLoopback() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            assertEquals(
                    "127.0.0.1",
                    RawHttp.get(s, origin.authority(), origin.url("/echo"))
                            .echo()
                            .ip());
            assertTrue(proxy.outboundAddress().isEmpty());
        }
    }

    @Test
    void socksProxiesTunnelFromTheConfiguredAddress() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeSocks4Proxy s4 =
                        FakeSocks4Proxy.builder().outboundFrom(SECOND_LOOPBACK).start();
                FakeSocks5Proxy s5 =
                        FakeSocks5Proxy.builder().outboundFrom(SECOND_LOOPBACK).start()) {
            try (Socket s = new Socket(s4.host(), s4.port())) {
                assertEquals(90, SocksClient.socks4(s, "127.0.0.1", origin.port(), ""));
                assertEquals("127.0.0.2", SocksClient.echo(s, origin).echo().ip());
            }
            try (Socket s = new Socket(s5.host(), s5.port())) {
                assertEquals(0, SocksClient.socks5Greeting(s, 0));
                assertEquals(0, SocksClient.socks5Connect(s, 1, "127.0.0.1", origin.port()));
                assertEquals("127.0.0.2", SocksClient.echo(s, origin).echo().ip());
            }
            assertTrue(s4.awaitIdle(IDLE));
            assertTrue(s5.awaitIdle(IDLE));
        }
    }

    @Test
    void httpProxyCountsRequestsAndPresentedCredentials() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy =
                        FakeHttpProxy.builder().basicAuth("alice", "pw").start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            assertEquals(
                    407, RawHttp.get(s, origin.authority(), origin.url("/echo")).status());
            String wrong = "Basic " + Base64.getEncoder().encodeToString("alice:nope".getBytes(StandardCharsets.UTF_8));
            RawHttp.Response r = RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "GET " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority()
                            + "\r\nProxy-Authorization: " + wrong + "\r\n\r\n",
                    false);
            assertEquals(407, r.status());
            assertEquals(2, proxy.requests());
            assertEquals(1, proxy.requestsWithCredentials());
            assertEquals(2, proxy.authChallenges());
        }
    }
}
