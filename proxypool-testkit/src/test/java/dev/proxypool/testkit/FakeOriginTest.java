package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FakeOriginTest {

    @Test
    void echoShowsPeerAddressAndHeadersAsSent() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket s = new Socket(origin.host(), origin.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    s.getInputStream(),
                    s.getOutputStream(),
                    "GET /echo HTTP/1.1\r\nHost: example.test\r\nX-Trace: a\r\nX-Trace: b\r\nConnection: close\r\n\r\n",
                    false);
            assertEquals(200, r.status());
            assertEquals("application/json", r.header("Content-Type"));
            EchoResponse echo = r.echo();
            assertEquals("127.0.0.1", echo.ip());
            assertEquals("example.test", echo.headers().get("Host"));
            assertEquals("a, b", echo.header("x-trace"));
        }
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket s = new Socket(origin.host(), origin.port())) {
            InputStream in = RawHttp.buffered(s);
            for (int i = 0; i < 3; i++) {
                RawHttp.Response r =
                        RawHttp.exchange(in, s.getOutputStream(), "GET /bytes?n=10 HTTP/1.1\r\nHost: o\r\n\r\n", false);
                assertEquals("abcdefghij", r.bodyText());
            }
            assertEquals(1, origin.acceptedConnections());
            assertEquals(3, origin.requests());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/bytes?n=100000, 100000", "/chunked?n=20000, 20000", "/bytes?n=0, 0", "/chunked?n=0, 0"})
    void bodiesHaveTheAnnouncedLengthAndPattern(String path, int n) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket s = new Socket(origin.host(), origin.port())) {
            RawHttp.Response r = RawHttp.get(s, "o", path);
            assertEquals(200, r.status());
            assertEquals(n, r.body().length);
            for (int i = 0; i < n; i++) {
                if (r.body()[i] != FakeOrigin.patternByte(i)) {
                    throw new AssertionError("byte " + i + " differs");
                }
            }
            assertEquals(path.startsWith("/chunked") ? "chunked" : null, r.header("Transfer-Encoding"));
        }
    }

    @Test
    void headHasNoBodyAndStatusEndpointsAnswerThatStatus() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket s = new Socket(origin.host(), origin.port())) {
            InputStream in = RawHttp.buffered(s);
            RawHttp.Response head =
                    RawHttp.exchange(in, s.getOutputStream(), "HEAD /bytes?n=500 HTTP/1.1\r\nHost: o\r\n\r\n", true);
            assertEquals("500", head.header("Content-Length"));
            assertEquals(0, head.body().length);
            assertEquals(
                    503,
                    RawHttp.exchange(in, s.getOutputStream(), "GET /status/503 HTTP/1.1\r\nHost: o\r\n\r\n", false)
                            .status());
            assertEquals(
                    204,
                    RawHttp.exchange(in, s.getOutputStream(), "GET /status/204 HTTP/1.1\r\nHost: o\r\n\r\n", false)
                            .status());
            assertEquals(
                    404,
                    RawHttp.exchange(in, s.getOutputStream(), "GET /nope HTTP/1.1\r\nHost: o\r\n\r\n", false)
                            .status());
            assertEquals(
                    400,
                    RawHttp.exchange(in, s.getOutputStream(), "GET /bytes?n=-1 HTTP/1.1\r\nHost: o\r\n\r\n", false)
                            .status());
        }
    }

    @Test
    void slowWaitsBeforeAnswering() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket s = new Socket(origin.host(), origin.port())) {
            long start = Ticker.system().read();
            assertEquals("slow\n", RawHttp.get(s, "o", "/slow?ms=150").bodyText());
            assertTrue(Ticker.system().read() - start >= Duration.ofMillis(150).toNanos());
        }
    }

    @Test
    void realClientOverPlainAndTls() throws Exception {
        try (FakeOrigin plain = FakeOrigin.start();
                FakeOrigin tls = FakeOrigin.builder().tls().start()) {
            HttpClient client =
                    HttpClient.newBuilder().sslContext(TestTls.clientContext()).build();
            for (FakeOrigin o : new FakeOrigin[] {plain, tls}) {
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(o.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("127.0.0.1", EchoResponse.parse(r.body()).ip());
            }
            assertTrue(tls.url("/").startsWith("https://127.0.0.1:"));
        }
    }

    @Test
    void tlsOriginIsRejectedByTheDefaultTrustStore() throws Exception {
        try (FakeOrigin tls = FakeOrigin.builder().tls().start()) {
            HttpClient client =
                    HttpClient.newBuilder().sslContext(SSLContext.getDefault()).build();
            assertThrows(
                    SSLHandshakeException.class,
                    () -> client.send(
                            HttpRequest.newBuilder(tls.uri("/")).build(), HttpResponse.BodyHandlers.ofString()));
        }
    }

    @Test
    void ipv6OriginSeesAnIpv6Peer() throws Exception {
        try (FakeOrigin origin = FakeOrigin.builder().ipv6().start()) {
            assertTrue(origin.url("/echo").startsWith("http://[0:0:0:0:0:0:0:1]:"), origin.url("/echo"));
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(origin.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("0:0:0:0:0:0:0:1", EchoResponse.parse(r.body()).ip());
        }
    }

    @Test
    void countersReturnToZeroAfterClientsClose() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start()) {
            Socket[] clients = new Socket[5];
            for (int i = 0; i < clients.length; i++) {
                clients[i] = new Socket(origin.host(), origin.port());
                RawHttp.get(clients[i], "o", "/");
            }
            assertTrue(origin.awaitOpen(5, Duration.ofSeconds(5)));
            for (Socket c : clients) {
                c.close();
            }
            assertTrue(origin.awaitIdle(Duration.ofSeconds(5)));
            assertEquals(5, origin.acceptedConnections());
            assertEquals(0, origin.handlerErrors());
        }
    }

    @Test
    void closeEndsOpenConnectionsAndIsIdempotent() throws Exception {
        FakeOrigin origin = FakeOrigin.start();
        try (Socket s = new Socket(origin.host(), origin.port())) {
            RawHttp.get(s, "o", "/");
            origin.close();
            assertEquals(0, origin.openConnections());
            assertEquals(-1, s.getInputStream().read());
            origin.close();
        }
    }

    @Test
    void echoJsonEscapesAndParsesBack() {
        HttpHead head =
                new HttpHead("GET / HTTP/1.1", java.util.List.<String[]>of(new String[] {"X-Q", "a\"b\\c\u0001"}));
        EchoResponse e = EchoResponse.parse(FakeOrigin.echoJson("::1", head));
        assertEquals("::1", e.ip());
        assertEquals("a\"b\\c\u0001", e.header("x-q"));
        assertNull(e.header("absent"));
        assertThrows(IllegalArgumentException.class, () -> EchoResponse.parse("{\"headers\": {}}"));
        assertThrows(IllegalArgumentException.class, () -> EchoResponse.parse("<html>"));
        assertArrayEquals(new byte[] {'a', 'b'}, new byte[] {FakeOrigin.patternByte(0), FakeOrigin.patternByte(1)});
    }
}
