package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Strict request parsing and the request-head deadline, over raw sockets: a second {@code Host}
 * field, a malformed chunk size in the client's body, an over-long request line, a client that
 * trickles its head byte by byte, and an idle keep-alive connection.
 */
class GatewayStrictWireTest {

    private TestOrigin origin;
    private DirectEngine engine;
    private GatewayFixture gw;

    @BeforeEach
    void start() throws IOException {
        origin = TestOrigin.http();
        engine = new DirectEngine();
        gw = new GatewayFixture(
                engine,
                ProxyAuthenticator.anonymous(),
                GatewayConfig.builder()
                        .requestHeadTimeout(Duration.ofSeconds(2))
                        .idleTimeout(Duration.ofSeconds(2))
                        .build());
    }

    @AfterEach
    void stop() {
        gw.close();
        origin.close();
    }

    @Test
    void twoHostHeadersAre400() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: "
                            + origin.authority() + "\r\nHost: other.example\r\n\r\n")
                    .read();
            assertEquals(400, r.status());
            assertEquals("bad_request", r.header("X-ProxyPool-Error"));
            assertTrue(r.text().contains("Host"), r.text());
            assertTrue(c.closedByServer(), "closed after the 400");
        }
        assertEquals(0, origin.requests.get(), "nothing reached the origin");
    }

    @ParameterizedTest(name = "chunk size {0}")
    @ValueSource(strings = {"ffffffffffffffffff", "-5", "5x"})
    void aMalformedChunkSizeInTheRequestBodyIs400BadFraming(String size) throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send(
                            "POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: " + origin.authority()
                                    + "\r\nTransfer-Encoding: chunked\r\n\r\n" + size + "\r\nhello\r\n0\r\n\r\n")
                    .read();
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("bad_framing", r.header("X-ProxyPool-Error"));
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(), "closed after the 400");
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
                "Transfer-Encoding: chunked, chunked",
                "Transfer-Encoding: gzip, chunked\r\nTransfer-Encoding: chunked"
            })
    void chunkedTwiceIs400AndClose(String fields) throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: "
                            + origin.authority() + "\r\n" + fields + "\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                    .read();
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("bad_framing", r.header("X-ProxyPool-Error"));
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(), "closed after the 400");
        }
        assertEquals(0, origin.requests.get(), "nothing reached the origin");
    }

    @ParameterizedTest(name = "chunk line {0}")
    @ValueSource(strings = {"5;a=\rb", "5\r;a=b", "5;a=b\r ", "5;a=\u0000"})
    void aBareCrOrControlCharacterInAChunkLineIs400AndClose(String sizeLine) throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send(
                            "POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: " + origin.authority()
                                    + "\r\nTransfer-Encoding: chunked\r\n\r\n" + sizeLine
                                    + "\r\nhello\r\n0\r\n\r\n")
                    .read();
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("bad_framing", r.header("X-ProxyPool-Error"));
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(), "closed after the 400");
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void aBareCrInAChunkedTrailerIs400AndClose() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: "
                            + origin.authority() + "\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
                            + "X-T: a\rb\r\n\r\n")
                    .read();
            assertEquals("HTTP/1.1 400 Bad Request", r.statusLine());
            assertEquals("bad_framing", r.header("X-ProxyPool-Error"));
            assertTrue(c.closedByServer(), "closed after the 400");
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void aMalformedChunkSizeFromTheUpstreamMidStreamCutsTheClientConnection() throws Exception {
        try (RawOrigin raw = new RawOrigin(h -> "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\nffffffffffffffffff\r\nmore");
                RawClient c = gw.client()) {
            c.send("GET http://" + raw.authority() + "/ HTTP/1.1\r\nHost: " + raw.authority() + "\r\n\r\n");
            long t0 = System.nanoTime();
            String got;
            try {
                got = new String(c.in.readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (java.net.SocketTimeoutException e) {
                throw new AssertionError("the client connection was not cut");
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // what was staged before the bad line may or may not have been flushed; never a complete message
            assertTrue(got.isEmpty() || got.startsWith("HTTP/1.1 200 OK\r\n"), got);
            assertTrue(!got.contains("ffff") && !got.contains("\r\n0\r\n"), "no bad size line, no last chunk: " + got);
            assertTrue(ms < 5_000, "cut at once, not after a timeout: " + ms + " ms");
        }
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void aValidChunkedBodyStillPasses() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("POST http://" + origin.authority() + "/echo HTTP/1.1\r\nHost: "
                            + origin.authority() + "\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                    .read();
            assertEquals(200, r.status());
            assertEquals("hello", r.text());
        }
    }

    @Test
    void anOverLongRequestLineGetsTheDocumentedStatus431() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/" + "x".repeat(9000)
                            + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n")
                    .read();
            assertEquals("HTTP/1.1 431 Request Header Fields Too Large", r.statusLine());
            assertEquals("request_line_too_long", r.header("X-ProxyPool-Error"));
        }
    }

    /** docs/api.md: more than 256 header fields is 431 {@code headers_too_large}; 256 are forwarded. */
    @Test
    void twoHundredFiftySixHeaderFieldsAreForwardedAndOneMoreIs431() throws IOException {
        for (int fields : new int[] {256, 257}) {
            StringBuilder raw = new StringBuilder("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: ")
                    .append(origin.authority())
                    .append("\r\n");
            for (int i = 1; i < fields; i++) { // Host is the first field
                raw.append("X-F").append(i).append(": v\r\n");
            }
            raw.append("\r\n");
            try (RawClient c = gw.client()) {
                RawClient.Response r = c.send(raw.toString()).read();
                if (fields == 256) {
                    // within the gateway's limit: forwarded (what the test origin makes of 256 fields is its own)
                    assertNotEquals(431, r.status(), "256 fields are within the limit");
                    assertNotEquals("headers_too_large", r.header("X-ProxyPool-Error"));
                } else {
                    assertEquals("HTTP/1.1 431 Request Header Fields Too Large", r.statusLine());
                    assertEquals("headers_too_large", r.header("X-ProxyPool-Error"));
                }
            }
        }
    }

    @Test
    void aTrickledHeadGets408ThenTheConnectionIsClosed() throws Exception {
        byte[] head = ("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: " + origin.authority()
                        + "\r\nX-Slow: " + "s".repeat(40) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        try (RawClient c = gw.client()) {
            long t0 = System.nanoTime();
            int sent = Trickle.bytesUntilClosed(c, head, Duration.ofMillis(300), Duration.ofSeconds(15));
            assertTrue(sent < head.length, "the head was cut short, sent " + sent + " of " + head.length);
            RawClient.Response r = c.read();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("HTTP/1.1 408 Request Timeout", r.statusLine());
            assertEquals("request_timeout", r.header("X-ProxyPool-Error"));
            assertEquals("close", r.header("Connection"));
            assertTrue(ms >= 1_900 && ms < 8_000, "408 after the 2 s head deadline, took " + ms + " ms");
            assertTrue(c.closedByServer(), "closed after the 408");
        }
        assertEquals(0, origin.requests.get(), "the slow request was never forwarded");
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws IOException {
        try (RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: "
                            + origin.authority() + "\r\n\r\n")
                    .read();
            assertEquals(200, r.status());
            long t0 = System.nanoTime();
            assertTrue(c.closedByServer(), "the idle connection was closed within the socket timeout");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 1_500, "not before the 2 s idle timeout: " + ms + " ms");
        }
    }
}
