package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.FakeSocks5Proxy.AddressType;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FakeSocksProxyTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    @ParameterizedTest(name = "target {0}")
    @CsvSource({"127.0.0.1, 0", "localhost, 1"})
    void socks4AndSocks4aConnect(String host, long domainRequests) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeSocks4Proxy proxy = FakeSocks4Proxy.start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(90, SocksClient.socks4(s, host, origin.port(), ""));
                assertEquals(200, SocksClient.echo(s, origin).status());
            }
            assertEquals(1, proxy.tunnels());
            assertEquals(domainRequests, proxy.domainRequests());
            assertTrue(proxy.awaitIdle(IDLE));
            assertTrue(origin.awaitIdle(IDLE));
        }
    }

    @ParameterizedTest(name = "userId {0} -> {1}")
    @CsvSource({"alice, 90", "mallory, 93", "'', 93"})
    void socks4UserIdIsChecked(String userId, int reply) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeSocks4Proxy proxy =
                        FakeSocks4Proxy.builder().requireUserId("alice").start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            assertEquals(reply, SocksClient.socks4(s, "127.0.0.1", origin.port(), userId));
        }
    }

    @Test
    void socks4UnreachableTargetAndForcedReplyAreRejected() throws Exception {
        try (FakeSocks4Proxy proxy = FakeSocks4Proxy.start();
                FakeSocks4Proxy forced =
                        FakeSocks4Proxy.builder().forceReply(92).start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(91, SocksClient.socks4(s, "127.0.0.1", TestPorts.closedPort(), ""));
            }
            try (Socket s = new Socket(forced.host(), forced.port())) {
                assertEquals(92, SocksClient.socks4(s, "127.0.0.1", 80, ""));
            }
        }
    }

    @ParameterizedTest(name = "ATYP {0}")
    @CsvSource({"1, 127.0.0.1, IPV4, false", "3, localhost, DOMAIN, false", "4, ::1, IPV6, true"})
    void socks5ConnectsWithEveryAddressType(int atyp, String host, AddressType type, boolean ipv6Origin)
            throws Exception {
        FakeOrigin.Builder ob = FakeOrigin.builder();
        try (FakeOrigin origin = (ipv6Origin ? ob.ipv6() : ob).start();
                FakeSocks5Proxy proxy = FakeSocks5Proxy.start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(0x00, SocksClient.socks5Greeting(s, 0x00));
                assertEquals(0x00, SocksClient.socks5Connect(s, atyp, host, origin.port()));
                assertEquals(200, SocksClient.echo(s, origin).status());
            }
            assertEquals(1, proxy.requests(type));
            assertTrue(proxy.awaitIdle(IDLE));
        }
    }

    @Test
    void socks5UsernamePassword() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeSocks5Proxy proxy =
                        FakeSocks5Proxy.builder().userPass("alice", "s3cret").start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(0xFF, SocksClient.socks5Greeting(s, 0x00), "no-auth is not acceptable");
            }
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(0x02, SocksClient.socks5Greeting(s, 0x00, 0x02));
                assertEquals(1, SocksClient.socks5Auth(s, "alice", "wrong"));
                assertEquals(-1, s.getInputStream().read(), "closed after a failed auth");
            }
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(0x02, SocksClient.socks5Greeting(s, 0x02));
                assertEquals(0, SocksClient.socks5Auth(s, "alice", "s3cret"));
                assertEquals(0x00, SocksClient.socks5Connect(s, 1, "127.0.0.1", origin.port()));
                assertEquals(200, SocksClient.echo(s, origin).status());
            }
            assertEquals(1, proxy.authFailures());
            assertEquals(1, proxy.tunnels());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"closed port, 5", "unresolvable, 4", "forced general failure, 1"})
    void socks5FailureReplies(String what, int reply) throws Exception {
        FakeSocks5Proxy.Builder b = FakeSocks5Proxy.builder();
        try (FakeSocks5Proxy proxy = (what.startsWith("forced") ? b.forceReply(1) : b).start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            SocksClient.socks5Greeting(s, 0x00);
            String host = what.equals("unresolvable") ? "no-such-host.invalid" : "127.0.0.1";
            assertEquals(
                    reply,
                    SocksClient.socks5Connect(s, what.equals("unresolvable") ? 3 : 1, host, TestPorts.closedPort()));
        }
    }
}
