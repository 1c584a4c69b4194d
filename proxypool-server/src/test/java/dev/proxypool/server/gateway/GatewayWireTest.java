package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The wire protocol through raw sockets: exact bytes in, exact status lines and headers out. */
class GatewayWireTest {

    private TestOrigin origin;
    private DirectEngine engine;
    private GatewayFixture gw;

    @BeforeEach
    void start() throws IOException {
        origin = TestOrigin.http();
        engine = new DirectEngine();
        gw = new GatewayFixture(engine);
    }

    @AfterEach
    void stop() {
        gw.close();
        origin.close();
    }

    private String get(String path) {
        return "GET http://" + origin.authority() + path + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n";
    }

    static void assertExplained(RawClient.Response r, String proxy, int attempts) {
        assertEquals(proxy, r.header("X-ProxyPool-Proxy"));
        assertNotNull(r.header("X-ProxyPool-Upstream"));
        assertNotNull(r.header("X-ProxyPool-Routing"));
        assertEquals(Integer.toString(attempts), r.header("X-ProxyPool-Attempts"));
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneSocket() throws IOException {
        try (RawClient c = gw.client()) {
            for (int i = 0; i < 5; i++) {
                RawClient.Response r = c.send(get("/hello")).read();
                assertEquals("HTTP/1.1 200 OK", r.statusLine());
                assertEquals("hello", r.text());
                assertNull(r.header("Connection"));
                assertExplained(r, "direct", 1);
            }
            // pipelined: two requests in one write
            c.send(get("/hello") + get("/chunked"));
            assertEquals("hello", c.read().text());
            assertEquals("alpha-beta-gamma", c.read().text());
        }
        assertEquals(7, origin.requests.get());
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void http10KeepAliveOnlyWhenAsked() throws IOException {
        try (RawClient c = gw.client()) {
            String req = "GET http://" + origin.authority() + "/hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
            RawClient.Response r = c.send(req).read();
            assertEquals("keep-alive", r.header("Connection"));
            assertEquals("hello", c.send(req).read().text());
        }
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.0\r\n\r\n")
                    .read();
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void connectionCloseFromClientIsHonoured() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: x\r\n"
                            + "Connection: close\r\n\r\n")
                    .read();
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void http10ClientGetsADechunkedBodyAndAClose() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/chunked HTTP/1.0\r\n\r\n")
                    .read();
            assertNull(r.header("Transfer-Encoding"));
            assertEquals("alpha-beta-gamma", r.text());
        }
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("malformed request line", "GET\r\n\r\n", 400, "bad_request"),
                Arguments.of("origin-form", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "origin_form_not_allowed"),
                Arguments.of("bad CONNECT target", "CONNECT nohost HTTP/1.1\r\n\r\n", 400, "bad_connect_target"),
                Arguments.of("PRI", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "unsupported_method"),
                Arguments.of("garbage", "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\r\n\r\n", 400, "bad_request"),
                Arguments.of(
                        "header without colon",
                        "GET http://a/ HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
                        400,
                        "bad_request"),
                Arguments.of(
                        "CL + TE",
                        "POST http://a/ HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        400,
                        "bad_framing"),
                Arguments.of(
                        "https absolute-form", "GET https://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400, "unsupported_scheme"),
                Arguments.of(
                        "request line 9 KiB",
                        "GET http://a/" + "x".repeat(9 * 1024) + " HTTP/1.1\r\n\r\n",
                        431,
                        "request_line_too_long"),
                Arguments.of(
                        "headers 70 KiB",
                        "GET http://a/ HTTP/1.1\r\nHost: a\r\n" + ("X-Pad: " + "p".repeat(1000) + "\r\n").repeat(70)
                                + "\r\n",
                        431,
                        "headers_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputIsAnsweredThenTheConnectionIsClosed(String name, String raw, int status, String reason)
            throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send(raw).read();
            assertEquals(status, r.status(), name);
            assertTrue(r.statusLine().startsWith("HTTP/1.1 " + status + " "), r.statusLine());
            assertEquals(reason, r.header("X-ProxyPool-Error"));
            assertEquals("close", r.header("Connection"));
            assertExplained(r, "none", 0);
            assertTrue(c.closedByServer(), "server closed the connection");
        }
        assertEquals(0, origin.requests.get());
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void hopByHopHeadersStopAtTheGateway() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send(
                            "GET http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: wrong.example\r\n"
                                    + "Connection: keep-alive, X-Secret-Hop\r\nX-Secret-Hop: 1\r\nKeep-Alive: timeout=5\r\n"
                                    + "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\nTE: trailers\r\n"
                                    + "Trailer: X-T\r\nUpgrade: h2c\r\nX-ProxyPool-Session: s1\r\nX-Kept: yes\r\n\r\n")
                    .read();
            assertEquals(200, r.status());
            String seen = r.header("X-Echo-Headers");
            for (String hop : new String[] {
                "connection",
                "x-secret-hop",
                "keep-alive",
                "proxy-connection",
                "proxy-authorization",
                "te",
                "trailer",
                "upgrade",
                "x-proxypool-session"
            }) {
                assertFalse((',' + seen + ',').contains(',' + hop + ','), hop + " was forwarded: " + seen);
            }
            assertTrue(seen.contains("x-kept"), seen);
        }
    }

    @Test
    void hostHeaderIsReplacedByTheTargetAuthority() throws Exception {
        try (RawOrigin raw = new RawOrigin(h -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
                RawClient c = gw.client()) {
            c.send("GET http://" + raw.authority() + "/p?q=1 HTTP/1.1\r\nHost: evil.example\r\n\r\n")
                    .read();
            String head = raw.heads.poll(5, TimeUnit.SECONDS);
            assertTrue(head.startsWith("GET /p?q=1 HTTP/1.1\r\n"), head);
            assertTrue(head.contains("\r\nHost: " + raw.authority() + "\r\n"), head);
            assertFalse(head.contains("evil.example"), head);
        }
    }

    @Test
    void chunkedResponseTrailersAreRelayed() throws Exception {
        String resp = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n"
                + "4\r\nwiki\r\n5\r\npedia\r\n0\r\nX-Sum: 9\r\n\r\n";
        try (RawOrigin raw = new RawOrigin(h -> resp);
                RawClient c = gw.client()) {
            RawClient.Response r = c.send(get2(raw, "GET", "/t")).read();
            assertEquals("wikipedia", r.text());
            assertEquals("X-Sum: 9\r\n", r.header("x-test-trailers"));
            assertNull(r.header("Trailer"));
            assertEquals("wikipedia", c.send(get2(raw, "GET", "/t")).read().text()); // still in sync
        }
    }

    private static String get2(RawOrigin raw, String method, String path) {
        return method + " http://" + raw.authority() + path + " HTTP/1.1\r\nHost: " + raw.authority() + "\r\n\r\n";
    }

    @Test
    void headAnd204And304CarryNoBody() throws Exception {
        try (RawOrigin raw = new RawOrigin(h -> h.startsWith("HEAD")
                        ? "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
                        : h.contains("/204")
                                ? "HTTP/1.1 204 No Content\r\n\r\n"
                                : "HTTP/1.1 304 Not Modified\r\nContent-Length: 77\r\n\r\n");
                RawClient c = gw.client()) {
            RawClient.Response head = c.send(get2(raw, "HEAD", "/x")).read(true);
            assertEquals("1000", head.header("Content-Length"));
            RawClient.Response noContent = c.send(get2(raw, "GET", "/204")).read();
            assertEquals(204, noContent.status());
            RawClient.Response notModified = c.send(get2(raw, "GET", "/304")).read();
            assertEquals(304, notModified.status());
            // the connection is still in sync: no body bytes were expected or relayed
            assertEquals(200, c.send(get2(raw, "HEAD", "/y")).read(true).status());
        }
    }

    @Test
    void readUntilCloseResponseEndsTheClientConnection() throws Exception {
        try (RawOrigin raw = new RawOrigin(h -> "HTTP/1.1 200 OK\r\n\r\nstreamed until close" + RawOrigin.CLOSE);
                RawClient c = gw.client()) {
            RawClient.Response r = c.send(get2(raw, "GET", "/")).read();
            assertEquals("close", r.header("Connection"));
            assertEquals("streamed until close", r.text());
        }
    }

    @Test
    void expectContinueIsAnsweredByTheGateway() throws IOException {
        try (RawClient c = gw.client()) {
            c.send("POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            RawClient.Response interim = c.read(true);
            assertEquals("HTTP/1.1 100 Continue", interim.statusLine());
            RawClient.Response r = c.send("hello").read();
            assertEquals(200, r.status());
            assertEquals("hello", r.text());
            assertFalse(r.header("X-Echo-Headers").contains("expect"));
        }
    }

    @Test
    void postBodyWithContentLengthAndChunkedIsForwarded() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: x\r\n"
                            + "Content-Length: 11\r\n\r\nhello world")
                    .read();
            assertEquals("hello world", r.text());
            assertEquals("POST", r.header("X-Echo-Method"));
            r = c.send("PUT http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: x\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
                    .read();
            assertEquals("abcde", r.text());
            assertEquals("PUT", r.header("X-Echo-Method"));
        }
    }

    @Test
    void connectOpensARawTunnelWithExplainabilityHeaders() throws Exception {
        try (RawClient c = gw.client()) {
            RawClient.Response est = c.send(
                            "CONNECT " + origin.authority() + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n")
                    .read(true);
            assertEquals("HTTP/1.1 200 Connection established", est.statusLine());
            assertExplained(est, "direct", 1);
            RawClient.Response r = c.send("GET /hello HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n")
                    .read();
            assertEquals("hello", r.text());
            assertNull(r.header("X-ProxyPool-Proxy"), "inside the tunnel the gateway adds nothing");
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void bytesSentRightBehindConnectReachTheTarget() throws Exception {
        try (RawClient c = gw.client()) {
            c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, c.read(true).status());
            assertEquals("hello", c.read().text());
        }
    }

    @Test
    void unreachableTargetIs502WithTheAttemptExplained() throws IOException {
        int closed = FreePort.closed();
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://127.0.0.1:" + closed + "/ HTTP/1.1\r\nHost: x\r\n\r\n")
                    .read();
            assertEquals(502, r.status());
            assertEquals("upstream_failed", r.header("X-ProxyPool-Error"));
            assertExplained(r, "direct", 2); // GET: one retry (the direct engine has one "proxy")
            r = c.send("CONNECT 127.0.0.1:" + closed + " HTTP/1.1\r\n\r\n").read();
            assertEquals(502, r.status());
            assertExplained(
                    r, "direct", 2); // a tunnel that could not be opened: one retry too (RetryRule.retriesTunnel)
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void idleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws IOException {
        try (GatewayFixture quick = new GatewayFixture(
                        engine,
                        ProxyAuthenticator.anonymous(),
                        GatewayConfig.builder()
                                .idleTimeout(Duration.ofMillis(300))
                                .build());
                RawClient c = new RawClient(quick.port())) {
            assertEquals(200, c.send(get("/hello")).read().status());
            long t0 = System.nanoTime();
            assertTrue(c.closedByServer());
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(5).toNanos());
        }
    }

    @Test
    void silentTunnelIsClosedAfterTheTunnelIdleTimeout() throws Exception {
        try (GatewayFixture quick = new GatewayFixture(
                        engine,
                        ProxyAuthenticator.anonymous(),
                        GatewayConfig.builder()
                                .tunnelIdleTimeout(Duration.ofMillis(300))
                                .build());
                RawClient c = new RawClient(quick.port())) {
            assertEquals(
                    200,
                    c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                            .read(true)
                            .status());
            long t0 = System.nanoTime();
            assertTrue(c.closedByServer(), "the idle tunnel is closed, not left to the client's 10 s read timeout");
            long waited = System.nanoTime() - t0;
            assertTrue(waited >= Duration.ofMillis(250).toNanos(), "not closed before the idle timeout: " + waited);
            assertTrue(waited < Duration.ofSeconds(5).toNanos(), "closed soon after the idle timeout: " + waited);
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void tunnelBusyInOneDirectionOnlyIsNotIdle() throws Exception {
        try (GatewayFixture quick = new GatewayFixture(
                        engine,
                        ProxyAuthenticator.anonymous(),
                        GatewayConfig.builder()
                                .tunnelIdleTimeout(Duration.ofMillis(300))
                                .build());
                RawClient c = new RawClient(quick.port())) {
            assertEquals(
                    200,
                    c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                            .read(true)
                            .status());
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            // for 1.5 s (five idle timeouts) only the client sends: the origin answers after the last chunk
            StringBuilder sent = new StringBuilder();
            for (int i = 0; i < 15; i++) {
                c.send("1\r\n" + (char) ('a' + i) + "\r\n");
                sent.append((char) ('a' + i));
                Thread.sleep(100); // paces the upload: bytes must keep moving one way only, across the idle timeout
            }
            RawClient.Response r = c.send("0\r\n\r\n").read();
            assertEquals(200, r.status());
            assertEquals(sent.toString(), r.text());
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void explainabilityHeadersNeverCarryAddressesOrCredentials() throws IOException {
        Map<String, String> secrets = Map.of("alice", "s3cret-pw");
        try (GatewayFixture auth =
                        new GatewayFixture(engine, ProxyAuthenticator.basic(secrets), GatewayConfig.DEFAULTS);
                RawClient c = new RawClient(auth.port())) {
            String cred = Base64.getEncoder().encodeToString("alice:s3cret-pw".getBytes(StandardCharsets.UTF_8));
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: x\r\n"
                            + "Proxy-Authorization: Basic " + cred + "\r\n\r\n")
                    .read();
            assertEquals(200, r.status());
            for (String h : new String[] {"X-ProxyPool-Proxy", "X-ProxyPool-Upstream", "X-ProxyPool-Routing"}) {
                String v = r.header(h);
                assertFalse(
                        v.contains("127.0.0.1")
                                || v.contains(Integer.toString(origin.port()))
                                || v.contains("s3cret")
                                || v.contains("alice")
                                || v.contains(cred),
                        h + ": " + v);
            }
        }
    }

    @Test
    void proxyAuthorizationIsRequiredWhenConfigured() throws IOException {
        try (GatewayFixture auth = new GatewayFixture(
                        engine, ProxyAuthenticator.basic(Map.of("alice", "pw")), GatewayConfig.DEFAULTS);
                RawClient c = new RawClient(auth.port())) {
            RawClient.Response r = c.send(get("/hello")).read();
            assertEquals(407, r.status());
            assertEquals("Basic realm=\"proxypool\"", r.header("Proxy-Authenticate"));
            assertEquals("auth_required", r.header("X-ProxyPool-Error"));
            String wrong = Base64.getEncoder().encodeToString("alice:nope".getBytes(StandardCharsets.UTF_8));
            r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic "
                            + wrong + "\r\n\r\n")
                    .read();
            assertEquals(407, r.status());
            String right = Base64.getEncoder().encodeToString("alice:pw".getBytes(StandardCharsets.UTF_8));
            r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic "
                            + right + "\r\n\r\n")
                    .read();
            assertEquals(200, r.status(), "same connection, after two 407s");
            r = c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n").read();
            assertEquals(407, r.status());
        }
        assertEquals(1, origin.requests.get());
    }

    @Test
    void engineRejectionBecomesStatusAndReason() throws IOException {
        GatewayEngine rejecting = new GatewayEngine() {
            @Override
            public RouteDecision route(RouteRequest request) {
                return new RouteDecision.Rejected(503, GatewayErrors.NO_CANDIDATE, "shop");
            }

            @Override
            public int inFlight() {
                return 0;
            }
        };
        try (GatewayFixture g = new GatewayFixture(rejecting);
                RawClient c = new RawClient(g.port())) {
            RawClient.Response r = c.send(get("/hello")).read();
            assertEquals(503, r.status());
            assertEquals("no_candidate", r.header("X-ProxyPool-Error"));
            assertEquals("shop", r.header("X-ProxyPool-Routing"));
            assertEquals(null, r.header("Connection"), "a GET rejection keeps the connection");
            r = c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n").read();
            assertEquals(503, r.status());
        }
    }

    @Test
    void largeChunkedUploadIsStreamedInBothDirections() throws IOException {
        byte[] chunk = new byte[30_000];
        java.util.Arrays.fill(chunk, (byte) 'q');
        try (RawClient c = gw.client()) {
            c.send("POST http://" + origin.authority()
                    + "/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 20; i++) {
                c.out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                c.out.write(chunk);
                c.out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            c.send("0\r\n\r\n");
            RawClient.Response r = c.read();
            assertEquals(20 * chunk.length, r.body().length);
            assertArrayEquals(chunk, java.util.Arrays.copyOfRange(r.body(), 0, chunk.length));
        }
    }
}
