package dev.proxypool.sdk.dial;

import static dev.proxypool.core.health.FailureKind.CONNECTION_REFUSED;
import static dev.proxypool.core.health.FailureKind.CONNECTION_RESET;
import static dev.proxypool.core.health.FailureKind.CONNECT_TIMEOUT;
import static dev.proxypool.core.health.FailureKind.PROTOCOL_ERROR;
import static dev.proxypool.core.health.FailureKind.PROXY_AUTH_REJECTED;
import static dev.proxypool.core.health.FailureKind.TLS_FAILURE;
import static dev.proxypool.core.health.FailureKind.UPSTREAM_UNREACHABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks4Proxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.NotAProxy;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The failure table: every way a dial fails maps to one FailureKind and stage, and leaks nothing. */
@Tag("slow")
class DialFailureTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    /** A fake, the proxy model for it, the expected kind and stage. */
    record Scenario(
            String name,
            Supplier<FakeServer> fake,
            ProxyKind kind,
            CredentialRef ref,
            FailureKind expected,
            DialStage stage) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        List<Scenario> s = new ArrayList<>();
        for (ProxyKind k : ProxyKind.values()) {
            boolean tls = k.protocol == Protocol.HTTPS;
            s.add(new Scenario(
                    k + " hangs",
                    () -> k.start(Faults.NONE.hang()),
                    k,
                    null,
                    CONNECT_TIMEOUT,
                    tls ? DialStage.TLS : DialStage.HANDSHAKE));
            s.add(new Scenario(
                    k + " answers too late",
                    () -> k.start(Faults.NONE.latency(Duration.ofMillis(700))),
                    k,
                    null,
                    CONNECT_TIMEOUT,
                    DialStage.HANDSHAKE));
            s.add(new Scenario(
                    k + " resets at once",
                    () -> k.start(Faults.NONE.resetAfter(0)),
                    k,
                    null,
                    CONNECTION_RESET,
                    DialStage.HANDSHAKE));
            s.add(new Scenario(
                    k + " half-closes at once",
                    () -> k.start(Faults.NONE.halfCloseAfter(0)),
                    k,
                    null,
                    CONNECTION_RESET,
                    DialStage.HANDSHAKE));
            if (k.auth) {
                s.add(new Scenario(
                        k + " wrong password", k::start, k, ProxyKind.WRONG, PROXY_AUTH_REJECTED, DialStage.HANDSHAKE));
                if (k.protocol != Protocol.SOCKS4) { // SOCKS4 without USERID is simply another USERID
                    s.add(new Scenario(
                            k + " no credentialRef",
                            k::start,
                            k,
                            CredentialRef.NONE,
                            PROXY_AUTH_REJECTED,
                            DialStage.HANDSHAKE));
                }
            }
        }
        s.add(new Scenario(
                "SOCKS5 reset after method selection",
                () -> ProxyKind.SOCKS5.start(Faults.NONE.resetAfter(2)),
                ProxyKind.SOCKS5,
                null,
                CONNECTION_RESET,
                DialStage.HANDSHAKE));
        for (ProxyKind k : new ProxyKind[] {ProxyKind.HTTP, ProxyKind.SOCKS4, ProxyKind.SOCKS5}) {
            s.add(new Scenario(
                    k + " to garbage",
                    () -> NotAProxy.start(NotAProxy.Behaviour.GARBAGE),
                    k,
                    null,
                    PROTOCOL_ERROR,
                    DialStage.HANDSHAKE));
            s.add(new Scenario(
                    k + " to a port that closes",
                    () -> NotAProxy.start(NotAProxy.Behaviour.CLOSE),
                    k,
                    null,
                    CONNECTION_RESET,
                    DialStage.HANDSHAKE));
        }
        for (ProxyKind k : new ProxyKind[] {ProxyKind.SOCKS4, ProxyKind.SOCKS5}) {
            s.add(new Scenario(
                    k + " to a web server",
                    () -> NotAProxy.start(NotAProxy.Behaviour.HTTP_200),
                    k,
                    null,
                    PROTOCOL_ERROR,
                    DialStage.HANDSHAKE));
        }
        s.add(new Scenario(
                "HTTPS to garbage",
                () -> NotAProxy.start(NotAProxy.Behaviour.GARBAGE),
                ProxyKind.HTTPS,
                null,
                TLS_FAILURE,
                DialStage.TLS));
        s.add(new Scenario(
                "HTTPS to a plain HTTP proxy",
                FakeHttpProxy::start,
                ProxyKind.HTTPS,
                null,
                TLS_FAILURE,
                DialStage.TLS));
        s.add(new Scenario(
                "HTTP CONNECT answered 503",
                () -> FakeHttpProxy.builder().forceStatus(503).start(),
                ProxyKind.HTTP,
                null,
                UPSTREAM_UNREACHABLE,
                DialStage.HANDSHAKE));
        s.add(new Scenario(
                "HTTP CONNECT answered 504",
                () -> FakeHttpProxy.builder().forceStatus(504).start(),
                ProxyKind.HTTP,
                null,
                UPSTREAM_UNREACHABLE,
                DialStage.HANDSHAKE));
        // a working proxy's word about this target (squid 500: the name does not resolve; 403: an ACL)
        for (int status : new int[] {500, 403, 404}) {
            s.add(new Scenario(
                    "HTTP CONNECT answered " + status,
                    () -> FakeHttpProxy.builder().forceStatus(status).start(),
                    ProxyKind.HTTP,
                    null,
                    UPSTREAM_UNREACHABLE,
                    DialStage.HANDSHAKE));
        }
        s.add(new Scenario(
                "HTTP CONNECT answered 418",
                () -> FakeHttpProxy.builder().forceStatus(418).start(),
                ProxyKind.HTTP,
                null,
                PROTOCOL_ERROR,
                DialStage.HANDSHAKE));
        for (int rep : new int[] {2, 3, 5, 6}) {
            int code = rep;
            s.add(new Scenario(
                    "SOCKS5 reply " + code,
                    () -> FakeSocks5Proxy.builder().forceReply(code).start(),
                    ProxyKind.SOCKS5,
                    null,
                    UPSTREAM_UNREACHABLE,
                    DialStage.HANDSHAKE));
        }
        s.add(new Scenario(
                "SOCKS5 general failure",
                () -> FakeSocks5Proxy.builder().forceReply(1).start(),
                ProxyKind.SOCKS5,
                null,
                UPSTREAM_UNREACHABLE,
                DialStage.HANDSHAKE));
        s.add(new Scenario(
                "SOCKS5 host unreachable",
                () -> FakeSocks5Proxy.builder().forceReply(4).start(),
                ProxyKind.SOCKS5,
                null,
                UPSTREAM_UNREACHABLE,
                DialStage.HANDSHAKE));
        s.add(new Scenario(
                "SOCKS5 command not supported",
                () -> FakeSocks5Proxy.builder().forceReply(7).start(),
                ProxyKind.SOCKS5,
                null,
                PROTOCOL_ERROR,
                DialStage.HANDSHAKE));
        s.add(new Scenario(
                "SOCKS4 rejected or failed",
                () -> FakeSocks4Proxy.builder().forceReply(91).start(),
                ProxyKind.SOCKS4,
                null,
                UPSTREAM_UNREACHABLE,
                DialStage.HANDSHAKE));
        s.add(new Scenario(
                "SOCKS4 identd rejection",
                () -> FakeSocks4Proxy.builder().forceReply(92).start(),
                ProxyKind.SOCKS4,
                null,
                PROXY_AUTH_REJECTED,
                DialStage.HANDSHAKE));
        return s.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void classifiesAndLeaksNothing(Scenario sc) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = sc.fake().get()) {
            Proxy proxy = sc.ref() == null ? sc.kind().proxy(fake) : sc.kind().proxy(fake, sc.ref());
            DialException e = assertThrows(
                    DialException.class,
                    () -> ProxyKind.dialer(ProxyKind.shortTimeouts())
                            .connect(proxy, "127.0.0.1", origin.port())
                            .close());
            assertEquals(sc.expected(), e.kind(), e.getMessage());
            assertEquals(sc.stage(), e.stage(), e.getMessage());
            assertEquals(proxy.id(), e.proxyId());
            assertMessageIsClean(e);
            assertTrue(fake.awaitIdle(IDLE), "the dialer left a connection open");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void targetUnreachableBehindTheProxy(ProxyKind kind) throws Exception {
        try (FakeServer fake = kind.start()) {
            DialException e = assertThrows(
                    DialException.class,
                    () -> ProxyKind.dialer().connect(kind.proxy(fake), "127.0.0.1", TestPorts.closedPort()));
            assertEquals(UPSTREAM_UNREACHABLE, e.kind(), e.getMessage());
            assertTrue(fake.awaitIdle(IDLE));
        }
    }

    /** Only a proxy's policy refusing the target (HTTP 403, SOCKS5 2) asks for a per-domain ban. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({
        "HTTP 403, true",
        "HTTP 500, false",
        "HTTP 502, false",
        "SOCKS5 2, true",
        "SOCKS5 4, false",
        "SOCKS5 5, false",
        "SOCKS4 91, false"
    })
    void onlyAPolicyRefusalBansTheDestination(String reply, boolean bans) throws Exception {
        String[] r = reply.split(" ");
        int code = Integer.parseInt(r[1]);
        ProxyKind kind = ProxyKind.valueOf(r[0]);
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = switch (kind) {
                    case HTTP -> FakeHttpProxy.builder().forceStatus(code).start();
                    case SOCKS5 -> FakeSocks5Proxy.builder().forceReply(code).start();
                    default -> FakeSocks4Proxy.builder().forceReply(code).start();
                }) {
            DialException e = assertThrows(
                    DialException.class,
                    () -> ProxyKind.dialer().connect(kind.proxy(fake), "127.0.0.1", origin.port()));
            assertEquals(UPSTREAM_UNREACHABLE, e.kind(), e.getMessage());
            assertEquals(bans, e.destinationForbidden(), e.getMessage());
            assertMessageIsClean(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void refusedProxyPort(ProxyKind kind) {
        Proxy proxy = Proxy.builder(new ProxyKey(kind.protocol, "127.0.0.1", TestPorts.closedPort(), null))
                .build();
        DialException e =
                assertThrows(DialException.class, () -> ProxyKind.dialer().connect(proxy, "127.0.0.1", 443));
        assertEquals(CONNECTION_REFUSED, e.kind());
        assertEquals(DialStage.CONNECT, e.stage());
        assertMessageIsClean(e);
    }

    @Test
    void connectTimeoutToABlackhole() {
        try (var hole = TestPorts.blackhole()) {
            Proxy proxy = Proxy.builder(new ProxyKey(Protocol.SOCKS5, hole.host(), hole.port(), null))
                    .build();
            DialException e = assertThrows(
                    DialException.class,
                    () -> ProxyKind.dialer(ProxyKind.shortTimeouts()).connect(proxy, "127.0.0.1", 443));
            assertEquals(CONNECT_TIMEOUT, e.kind());
            assertEquals(DialStage.CONNECT, e.stage());
        }
    }

    @Test
    void unresolvableProxyHostIsRefused() {
        Proxy proxy = Proxy.builder(new ProxyKey(Protocol.HTTP, "no-such-proxy.invalid", 8080, null))
                .build();
        DialException e =
                assertThrows(DialException.class, () -> ProxyKind.dialer().connect(proxy, "127.0.0.1", 443));
        assertEquals(CONNECTION_REFUSED, e.kind());
        assertFalse(e.getMessage().contains("no-such-proxy"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void missingCredentialsFailClosedBeforeAnyConnection(ProxyKind kind) throws Exception {
        try (FakeServer fake = kind.start()) {
            Proxy proxy = kind.proxy(fake, ProxyKind.MISSING);
            DialException e =
                    assertThrows(DialException.class, () -> ProxyKind.dialer().connect(proxy, "127.0.0.1", 443));
            assertEquals(PROXY_AUTH_REJECTED, e.kind());
            assertEquals(DialStage.CREDENTIALS, e.stage());
            assertFalse(e.proxyContacted());
            assertTrue(e.getMessage().contains("'missing'"), e.getMessage());
            if (kind.protocol == Protocol.HTTP || kind.protocol == Protocol.HTTPS) {
                assertThrows(DialException.class, () -> ProxyKind.dialer().openForwarding(proxy));
            }
            assertEquals(0, fake.acceptedConnections(), "no unauthenticated attempt");
        }
    }

    @Test
    void untrustedHttpsProxyCertificateIsATlsFailure() throws Exception {
        try (FakeServer fake = ProxyKind.HTTPS.start()) {
            UpstreamDialer defaultTrust = UpstreamDialer.create(ProxyKind.STORE);
            DialException e = assertThrows(
                    DialException.class, () -> defaultTrust.connect(ProxyKind.HTTPS.proxy(fake), "127.0.0.1", 443));
            assertEquals(TLS_FAILURE, e.kind());
            assertEquals(DialStage.TLS, e.stage());
            assertMessageIsClean(e);
        }
    }

    @Test
    void socksCredentialsOverTheProtocolLimitFailClosed() throws Exception {
        StaticCredentialStore store = StaticCredentialStore.empty().with("long", "u", "p".repeat(256));
        try (FakeServer fake = ProxyKind.SOCKS5_AUTH.start()) {
            DialException e = assertThrows(
                    DialException.class,
                    () -> UpstreamDialer.builder(store)
                            .build()
                            .connect(ProxyKind.SOCKS5_AUTH.proxy(fake, new CredentialRef("long")), "127.0.0.1", 443));
            assertEquals(DialStage.CREDENTIALS, e.stage());
            assertEquals(0, fake.acceptedConnections());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void slicedWritesAndModestLatencyStillSucceed(ProxyKind kind) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start(Faults.NONE.slicedWrites().latency(Duration.ofMillis(50)));
                Socket tunnel = ProxyKind.dialer(ProxyKind.shortTimeouts())
                        .connect(kind.proxy(fake), "127.0.0.1", origin.port())) {
            assertEquals(200, RawHttp.get(tunnel, origin.authority(), "/echo").status());
        }
    }

    @Test
    void aWebServerAnsweringConnectWith200LooksLikeAProxyToTheDialer() throws Exception {
        // documented limit: only a request through the tunnel (the validator's echo) tells them apart
        try (NotAProxy web = NotAProxy.start(NotAProxy.Behaviour.HTTP_200);
                Socket tunnel = ProxyKind.dialer().connect(web.asProxy(Protocol.HTTP), "127.0.0.1", 443)) {
            // the dialer consumed the reply head and nothing more: the page's body is what the tunnel yields
            String rest = new String(tunnel.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals("<html>this is not a proxy</html>", rest);
        }
    }

    private static void assertMessageIsClean(DialException e) {
        String m = e.getMessage();
        assertFalse(m.contains("127.0.0.1"), m);
        assertFalse(m.contains(ProxyKind.PASSWORD), m);
        assertFalse(m.contains("not-the-password"), m);
        assertTrue(m.contains("127.0.x.x"), m);
        assertEquals(null, e.getCause());
    }
}
