package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.FakeHttpProxy.HeaderBehaviour;
import java.io.InputStream;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FakeHttpProxyTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    private static HttpClient clientVia(FakeServer proxy) {
        return HttpClient.newBuilder()
                .proxy(ProxySelector.of(proxy.address()))
                .sslContext(TestTls.clientContext())
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            nullValues = "-",
            value = {"CLEAN, -, -", "ADD_VIA, 1.1 proxypool-testkit, -", "LEAK_FORWARDED_FOR, -, 127.0.0.1"})
    void forwardsAbsoluteFormWithItsHeaderBehaviour(HeaderBehaviour behaviour, String via, String forwardedFor)
            throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder().headers(behaviour).start()) {
            HttpResponse<String> r = clientVia(proxy)
                    .send(HttpRequest.newBuilder(origin.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            EchoResponse echo = EchoResponse.parse(r.body());
            assertEquals(via, echo.header("Via"));
            assertEquals(forwardedFor, echo.header("X-Forwarded-For"));
            assertEquals(1, proxy.forwardedRequests());
        }
    }

    @Test
    void addedHeadersLeakTheClientInEveryForm() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .addHeader("Forwarded", "for=" + FakeHttpProxy.CLIENT_IP)
                        .addHeader("X-Real-IP", FakeHttpProxy.CLIENT_IP)
                        .addHeader("X-Proxy-Id", "fake-7")
                        .start()) {
            HttpResponse<String> r = clientVia(proxy)
                    .send(HttpRequest.newBuilder(origin.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString());
            EchoResponse echo = EchoResponse.parse(r.body());
            assertEquals("for=127.0.0.1", echo.header("Forwarded"));
            assertEquals("127.0.0.1", echo.header("X-Real-IP"));
            assertEquals("fake-7", echo.header("X-Proxy-Id"));
        }
        assertThrows(
                IllegalArgumentException.class, () -> FakeHttpProxy.builder().addHeader("X-A", "a\r\nX-B: b"));
    }

    @Test
    void tunnelsHttpsWithConnect() throws Exception {
        try (FakeOrigin origin = FakeOrigin.builder().tls().start();
                FakeHttpProxy proxy = FakeHttpProxy.start()) {
            HttpResponse<String> r = clientVia(proxy)
                    .send(HttpRequest.newBuilder(origin.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals(1, proxy.tunnels());
            assertEquals(0, proxy.forwardedRequests());
        }
    }

    @Test
    void basicAuthChallengesThenForwardsWithoutLeakingTheCredentials() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy =
                        FakeHttpProxy.builder().basicAuth("alice", "s3cret").start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            InputStream in = RawHttp.buffered(s);
            String get = "GET " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n";
            RawHttp.Response challenge = RawHttp.exchange(in, s.getOutputStream(), get + "\r\n", false);
            assertEquals(407, challenge.status());
            assertEquals("Basic realm=\"proxypool-testkit\"", challenge.header("Proxy-Authenticate"));
            RawHttp.Response wrong = RawHttp.exchange(
                    in,
                    s.getOutputStream(),
                    get + "Proxy-Authorization: " + basic("alice", "nope") + "\r\n\r\n",
                    false);
            assertEquals(407, wrong.status());
            RawHttp.Response ok = RawHttp.exchange(
                    in,
                    s.getOutputStream(),
                    get + "Proxy-Authorization: " + basic("alice", "s3cret")
                            + "\r\nProxy-Connection: keep-alive\r\n\r\n",
                    false);
            assertEquals(200, ok.status());
            assertNull(ok.echo().header("Proxy-Authorization"));
            assertNull(ok.echo().header("Proxy-Connection"));
            assertEquals(2, proxy.authChallenges());
            assertEquals(1, proxy.acceptedConnections(), "a 407 keeps the connection");
        }
    }

    @Test
    void connectWithoutCredentialsIsChallenged() throws Exception {
        try (FakeHttpProxy proxy =
                        FakeHttpProxy.builder().basicAuth("alice", "s3cret").start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    s.getInputStream(),
                    s.getOutputStream(),
                    "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n",
                    false);
            assertEquals(407, r.status());
            assertEquals(0, proxy.tunnels());
        }
    }

    @Test
    void keepsAliveOnBothSides() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            InputStream in = RawHttp.buffered(s);
            for (String path : new String[] {"/bytes?n=5", "/chunked?n=70000", "/echo"}) {
                RawHttp.Response r = RawHttp.exchange(
                        in,
                        s.getOutputStream(),
                        "GET " + origin.url(path) + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n",
                        false);
                assertEquals(200, r.status(), path);
            }
            assertEquals(1, proxy.acceptedConnections());
            assertEquals(1, origin.acceptedConnections());
            assertEquals(3, origin.requests());
        }
    }

    @ParameterizedTest(name = "target {0} -> {1}")
    @CsvSource({"closed, 502", "unresolvable, 502"})
    void connectToAnUnreachableTargetAnswersBadGateway(String target, int status) throws Exception {
        String authority = target.equals("closed") ? "127.0.0.1:" + TestPorts.closedPort() : "no-such-host.invalid:443";
        try (FakeHttpProxy proxy = FakeHttpProxy.start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    s.getInputStream(),
                    s.getOutputStream(),
                    "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n",
                    false);
            assertEquals(status, r.status());
            assertTrue(proxy.awaitIdle(IDLE));
        }
    }

    @Test
    void forcedStatusAnswersEveryRequest() throws Exception {
        try (FakeHttpProxy proxy = FakeHttpProxy.builder().forceStatus(503).start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            assertEquals(
                    503,
                    RawHttp.exchange(
                                    s.getInputStream(),
                                    s.getOutputStream(),
                                    "CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n",
                                    false)
                            .status());
        }
    }

    @Test
    void aRefusedTargetGetsItsStatusAndEveryOtherTargetIsServed() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy =
                        FakeHttpProxy.builder().refuse("Dead.Invalid", 500).start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(
                        500,
                        RawHttp.exchange(
                                        s.getInputStream(),
                                        s.getOutputStream(),
                                        "CONNECT dead.invalid:443 HTTP/1.1\r\n\r\n",
                                        false)
                                .status());
            }
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(
                        500,
                        RawHttp.exchange(
                                        s.getInputStream(),
                                        s.getOutputStream(),
                                        "GET http://DEAD.invalid/x HTTP/1.1\r\nHost: dead.invalid\r\n\r\n",
                                        false)
                                .status());
            }
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                assertEquals(
                        200,
                        RawHttp.exchange(
                                        s.getInputStream(),
                                        s.getOutputStream(),
                                        "CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n",
                                        true)
                                .status());
                assertTrue(proxy.maxOpenConnections() >= 1, "the open connection is counted");
            }
            assertEquals(1, proxy.tunnels());
        }
    }

    @Test
    void originFormAndGarbageAreBadRequests() throws Exception {
        try (FakeHttpProxy proxy = FakeHttpProxy.start()) {
            for (String request :
                    new String[] {"GET /echo HTTP/1.1\r\nHost: x\r\n\r\n", "\u0005\u0001\u0000\r\n\r\n"}) {
                try (Socket s = new Socket(proxy.host(), proxy.port())) {
                    assertEquals(
                            400,
                            RawHttp.exchange(s.getInputStream(), s.getOutputStream(), request, false)
                                    .status());
                }
            }
            assertTrue(proxy.awaitIdle(IDLE));
        }
    }

    @Test
    void tlsModeIsAnHttpsProxy() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder().tls().start();
                SSLSocket s = (SSLSocket)
                        TestTls.clientContext().getSocketFactory().createSocket(proxy.host(), proxy.port())) {
            InputStream in = RawHttp.buffered(s);
            RawHttp.Response connect = RawHttp.exchange(
                    in,
                    s.getOutputStream(),
                    "CONNECT " + origin.authority() + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n",
                    true);
            assertEquals(200, connect.status());
            RawHttp.Response echo = RawHttp.exchange(
                    in, s.getOutputStream(), "GET /echo HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n", false);
            assertEquals("127.0.0.1", echo.echo().ip());
            assertEquals(protocolName(proxy), "https");
        }
    }

    @Test
    void asProxyDescribesItInTheCoreModel() {
        try (FakeHttpProxy proxy = FakeHttpProxy.start()) {
            assertEquals(proxy.port(), proxy.asProxy().port());
            assertEquals("127.0.0.1", proxy.asProxy().host());
            assertEquals("http", protocolName(proxy));
        }
    }

    private static String protocolName(FakeHttpProxy p) {
        return p.asProxy().protocol().wireName();
    }

    static String basic(String user, String pass) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + pass).getBytes(StandardCharsets.UTF_8));
    }
}
