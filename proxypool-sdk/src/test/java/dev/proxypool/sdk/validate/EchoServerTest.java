package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The standalone echo endpoint, with a real client and raw sockets. */
class EchoServerTest {

    @Test
    void echoesThePeerAndTheHeadersAsJson() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(echo.url())
                            .header("X-Probe", "one")
                            .header("X-Probe", "two")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals(
                    "application/json", r.headers().firstValue("Content-Type").orElseThrow());
            EchoJson.Echo e = EchoJson.parse(r.body());
            assertEquals("127.0.0.1", e.ip());
            assertEquals("one, two", e.header("x-probe"));
            assertEquals("127.0.0.1:" + echo.port(), e.header("Host"));
            assertEquals(1, echo.requests());
        }
    }

    @Test
    void portZeroPicksAFreePortAndTheUrlNamesIt() {
        try (EchoServer echo = EchoServer.builder().port(0).start()) {
            assertTrue(echo.port() > 0);
            assertEquals(URI.create("http://127.0.0.1:" + echo.port() + "/v1/echo"), echo.url());
        }
    }

    @Test
    void bindsTheConfiguredAddressAndPort() throws IOException {
        EchoServer echo = null;
        int port = 0;
        // a port found free can be taken by another process before the bind: try a few (bounded)
        for (int attempt = 0; echo == null; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            try {
                echo = EchoServer.builder()
                        .bind(InetAddress.ofLiteral("127.0.0.2"))
                        .port(port)
                        .start();
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof BindException) || attempt >= 20) {
                    throw e;
                }
            }
        }
        EchoServer started = echo;
        try (started;
                Socket s = new Socket("127.0.0.2", port)) {
            assertEquals("127.0.0.2", started.host());
            RawHttp.Response r = RawHttp.get(s, started.host() + ":" + port, "/v1/echo");
            assertEquals(200, r.status());
            assertEquals("127.0.0.1", EchoJson.parse(r.bodyText()).ip());
        }
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            HttpClient client = HttpClient.newHttpClient();
            URI base = echo.url();
            assertEquals(
                    404,
                    client.send(
                                    HttpRequest.newBuilder(base.resolve("/v1/echo/x"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode());
            assertEquals(
                    404,
                    client.send(
                                    HttpRequest.newBuilder(base.resolve("/")).build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode());
            HttpResponse<Void> post = client.send(
                    HttpRequest.newBuilder(base)
                            .POST(HttpRequest.BodyPublishers.ofString("x"))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertEquals(405, post.statusCode());
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
            HttpResponse<String> head =
                    client.send(HttpRequest.newBuilder(base).HEAD().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode());
            assertEquals("", head.body());
            assertEquals(1, echo.requests(), "HEAD counts, refusals do not");
        }
    }

    @Test
    void servesHttpsWithTheGivenKey() throws Exception {
        try (EchoServer echo = EchoServer.builder().tls(TestTls.serverContext()).start()) {
            assertEquals("https", echo.url().getScheme());
            HttpClient client =
                    HttpClient.newBuilder().sslContext(TestTls.clientContext()).build();
            HttpResponse<String> r =
                    client.send(HttpRequest.newBuilder(echo.url()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals("127.0.0.1", EchoJson.parse(r.body()).ip());
        }
    }

    @Test
    void jsonEscapesEveryHeaderValueAndRoundTrips() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("X-Quote", List.of("a \"b\" \\c"));
        headers.put("X-Control", List.of("tab\there\u0001"));
        headers.put("X-Many", List.of("1", "2"));
        String json = EchoServer.json("::1", headers);
        EchoJson.Echo e = EchoJson.parse(json);
        assertEquals("::1", e.ip());
        assertEquals("a \"b\" \\c", e.header("x-quote"));
        assertEquals("tab\there\u0001", e.header("X-Control"));
        assertEquals("1, 2", e.header("X-Many"));
    }

    @Test
    void badOptionsAreRefusedWithTheirName() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> EchoServer.builder().port(70000));
        assertTrue(e.getMessage().contains("port") && e.getMessage().contains("70000"), e.getMessage());
    }

    @Test
    void theIpv6PeerHasNoScope() {
        assertEquals("fe80:0:0:0:0:0:0:1", EchoServer.peer(InetAddress.ofLiteral("fe80::1%1")));
        assertEquals("192.0.2.7", EchoServer.peer(InetAddress.ofLiteral("192.0.2.7")));
    }
}
