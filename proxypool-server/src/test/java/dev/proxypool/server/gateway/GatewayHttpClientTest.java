package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDK HttpClient through the gateway: plain HTTP in absolute-form, HTTPS through CONNECT. */
class GatewayHttpClientTest {

    private static final long BIG = 50L * 1024 * 1024;

    private static TestOrigin origin;
    private static TestOrigin tlsOrigin;
    private static SelfSignedTls tls;
    private static DirectEngine engine;
    private static GatewayFixture gw;
    private static HttpClient client;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        tls = SelfSignedTls.create(dir);
        origin = TestOrigin.http();
        tlsOrigin = TestOrigin.https(tls.server);
        engine = new DirectEngine();
        gw = new GatewayFixture(engine);
        client = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", gw.port())))
                .sslContext(tls.client)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() {
        client.close(); // closes the pooled tunnel: its capacity must come back
        GatewayFixture.awaitInFlightZero(engine);
        gw.close();
        origin.close();
        tlsOrigin.close();
    }

    @Test
    void getThroughTheGateway() throws Exception {
        HttpResponse<String> r =
                client.send(HttpRequest.newBuilder(origin.uri("/hello")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("hello", r.body());
        assertEquals("direct", r.headers().firstValue("X-ProxyPool-Proxy").orElseThrow());
        assertEquals("1", r.headers().firstValue("X-ProxyPool-Attempts").orElseThrow());
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void postWithBody() throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .POST(HttpRequest.BodyPublishers.ofString("a=1&b=2"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("a=1&b=2", r.body());
        assertEquals("POST", r.headers().firstValue("X-Echo-Method").orElseThrow());
    }

    @Test
    void chunkedResponse() throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(origin.uri("/chunked")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("alpha-beta-gamma", r.body());
    }

    /**
     * 50 MB up: the client's body blocks after 30 MB until the origin has received 25 MB, which can
     * only happen if the gateway streams (a buffering relay would deadlock and the gate time out).
     */
    @Test
    void largeUploadIsStreamedNotBuffered() throws Exception {
        origin.expectedUpload = BIG;
        origin.uploadHalf = new CountDownLatch(1);
        CRC32 expected = new CRC32();
        InputStream body = new InputStream() {
            long sent;
            boolean gated;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (sent >= BIG) {
                    return -1;
                }
                if (!gated && sent >= BIG * 3 / 5) {
                    gated = true;
                    try {
                        if (!origin.uploadHalf.await(20, TimeUnit.SECONDS)) {
                            throw new IOException("origin did not see half the upload while we held the rest");
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                int n = (int) Math.min(len, BIG - sent);
                for (int i = 0; i < n; i++) {
                    b[off + i] = (byte) ((sent + i) * 13);
                }
                expected.update(b, off, n);
                sent += n;
                return n;
            }
        };
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(origin.uri("/count"))
                        .POST(HttpRequest.BodyPublishers.fromPublisher(
                                HttpRequest.BodyPublishers.ofInputStream(() -> body), BIG))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(BIG + " " + expected.getValue(), r.body());
        GatewayFixture.awaitInFlightZero(engine);
    }

    /** 50 MB down: the origin pauses at half until the client has read 25 MB through the gateway. */
    @Test
    void largeDownloadIsStreamedNotBuffered() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        origin.downloadGate = gate;
        try {
            HttpResponse<InputStream> r = client.send(
                    HttpRequest.newBuilder(origin.uri("/stream?bytes=" + BIG)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            long total = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = r.body()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    total += n;
                    if (total >= BIG / 2) {
                        gate.countDown();
                    }
                }
            }
            assertEquals(BIG, total);
        } finally {
            origin.downloadGate = null;
        }
    }

    @Test
    void httpsThroughConnect() throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(tlsOrigin.uri("/echo"))
                            .POST(HttpRequest.BodyPublishers.ofString("secret body " + i))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals("secret body " + i, r.body());
        }
        assertTrue(tlsOrigin.requests.get() >= 3);
        assertEquals(1, engine.inFlight(), "one pooled tunnel holds its capacity while it is open");
    }
}
