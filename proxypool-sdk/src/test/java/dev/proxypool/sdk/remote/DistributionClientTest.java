package dev.proxypool.sdk.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's wire contract against a canned HTTP server (the JDK's): what it sends, how it reads
 * a 200, and which exception each error body becomes. The same client against a real
 * {@code ProxyPoolServer} is tested in the CLI module (the server depends on this module).
 */
class DistributionClientTest {

    private HttpServer server;
    private ExecutorService executor;
    private final AtomicReference<Canned> next = new AtomicReference<>();
    private final AtomicReference<Seen> seen = new AtomicReference<>();

    private record Canned(int status, String body, Map<String, String> headers) {}

    private record Seen(
            String method, String path, String authorization, String idempotencyKey, String contentType, String body) {}

    @BeforeEach
    void start() throws IOException {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.set(new Seen(
                    ex.getRequestMethod(),
                    ex.getRequestURI().getPath(),
                    ex.getRequestHeaders().getFirst("Authorization"),
                    ex.getRequestHeaders().getFirst("Idempotency-Key"),
                    ex.getRequestHeaders().getFirst("Content-Type"),
                    body));
            Canned c = next.get();
            c.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
            ex.getResponseHeaders().set("Content-Type", "application/json");
            byte[] bytes = c.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(c.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private DistributionClient client() {
        return DistributionClient.builder(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"))
                .token("tok-123")
                .timeout(Duration.ofSeconds(5))
                .build();
    }

    private void answer(int status, String body) {
        answer(status, body, Map.of());
    }

    private void answer(int status, String body, Map<String, String> headers) {
        next.set(new Canned(status, body, headers));
    }

    private static final String TWO = """
            {"requested": 3, "extracted": 2, "proxies": [
              {"id": "p1", "url": "http://us%40er:p%3Ass@203.0.113.7:8000", "protocol": "http", "host": "203.0.113.7",
               "port": 8000, "labels": {"country": "US"}, "expiresAt": "2026-11-30T12:00:00Z", "remainingTtlSeconds": 1740},
              {"id": "p2", "url": "socks5://198.51.100.9:1080", "protocol": "socks5", "host": "198.51.100.9",
               "port": 1080, "labels": {}, "expiresAt": null, "remainingTtlSeconds": null, "futureField": 1}]}
            """;

    @Test
    void sendsTheBodyTokenAndIdempotencyKeyAndReadsAPartialAnswer() {
        answer(200, TWO);
        try (DistributionClient c = client()) {
            ExtractionResponse r = c.extract(Extraction.of(3)
                    .protocol(Protocol.HTTP)
                    .country("US")
                    .label("type", "residential")
                    .upstream("vendor-a")
                    .minRemainingTtl(Duration.ofSeconds(60))
                    .allOrNothing()
                    .idempotencyKey("key-1"));
            Seen s = seen.get();
            assertEquals("POST", s.method());
            assertEquals("/v1/extractions", s.path());
            assertEquals("Bearer tok-123", s.authorization());
            assertEquals("key-1", s.idempotencyKey());
            assertEquals("application/json", s.contentType());
            assertEquals(
                    "{\"count\":3,\"fulfillment\":\"allOrNothing\",\"filter\":{\"protocol\":\"http\","
                            + "\"upstream\":\"vendor-a\",\"labels\":{\"country\":\"US\",\"type\":\"residential\"}},"
                            + "\"minRemainingTtlSeconds\":60}",
                    s.body().replace(" ", ""));
            assertEquals(3, r.requested());
            assertEquals(2, r.extracted());
            assertFalse(r.complete());
            assertFalse(r.replayed());
            ExtractedProxyView p1 = r.proxies().get(0);
            assertEquals("http://us%40er:p%3Ass@203.0.113.7:8000", p1.url());
            assertEquals(Protocol.HTTP, p1.protocol());
            assertEquals(8000, p1.port());
            assertEquals(Map.of("country", "US"), p1.labels());
            assertEquals(Instant.parse("2026-11-30T12:00:00Z"), p1.expiresAt().orElseThrow());
            assertEquals(1740, p1.remainingTtlSeconds().getAsLong());
            ExtractedProxyView p2 = r.proxies().get(1);
            assertTrue(p2.expiresAt().isEmpty());
            assertTrue(p2.remainingTtlSeconds().isEmpty());
            assertFalse(p2.hasCredentials());
        }
    }

    @Test
    void aMinimalCallSendsOnlyCountAndFulfillment() {
        answer(200, "{\"requested\": 1, \"extracted\": 0, \"proxies\": []}");
        try (DistributionClient c = client()) {
            ExtractionResponse r = c.extract(Extraction.of(1));
            assertEquals(
                    "{\"count\":1,\"fulfillment\":\"partial\"}",
                    seen.get().body().replace(" ", ""));
            assertEquals(null, seen.get().idempotencyKey());
            assertEquals(0, r.extracted());
            assertTrue(r.proxies().isEmpty());
        }
    }

    @Test
    void replayedHeaderIsReported() {
        answer(200, "{\"requested\": 1, \"extracted\": 0, \"proxies\": []}", Map.of("Idempotent-Replayed", "true"));
        try (DistributionClient c = client()) {
            assertTrue(c.extract(Extraction.of(1)).replayed());
        }
    }

    @Test
    void theViewsToStringNeverShowsTheSecretOrTheAddress() {
        answer(200, TWO);
        try (DistributionClient c = client()) {
            ExtractionResponse r = c.extract(Extraction.of(3));
            for (String text : List.of(r.toString(), r.proxies().get(0).toString())) {
                assertFalse(text.contains("p%3Ass"), text);
                assertFalse(text.contains("us%40er"), text);
                assertFalse(text.contains("203.0.113.7"), text);
                assertTrue(text.contains("http://***@203.0.x.x:8000"), text);
            }
            assertEquals("socks5://198.51.x.x:1080", r.proxies().get(1).maskedUrl());
            assertFalse(c.toString().contains("tok-123"));
        }
    }

    /** status, body, headers → the exception's type, status and code. */
    @Test
    void everyErrorBodyBecomesItsTypedException() {
        record Row(
                int status,
                String body,
                Map<String, String> headers,
                Class<? extends DistributionException> type,
                String code) {}
        List<Row> rows = List.of(
                new Row(
                        400,
                        "{\"error\": \"invalid_request\", \"message\": \"count must be between 1 and 1000, got 5000\"}",
                        Map.of(),
                        DistributionException.InvalidRequest.class,
                        "invalid_request"),
                new Row(
                        413,
                        "{\"error\": \"invalid_request\", \"message\": \"request body exceeds 65536 bytes\"}",
                        Map.of(),
                        DistributionException.InvalidRequest.class,
                        "invalid_request"),
                new Row(
                        401,
                        "{\"error\": \"unauthorized\", \"message\": \"a valid bearer token is required\"}",
                        Map.of("WWW-Authenticate", "Bearer realm=\"proxypool\""),
                        DistributionException.Unauthorized.class,
                        "unauthorized"),
                new Row(
                        403,
                        "{\"error\": \"forbidden\"}",
                        Map.of(),
                        DistributionException.Unauthorized.class,
                        "forbidden"),
                new Row(
                        409,
                        "{\"error\": \"insufficient_proxies\", \"requested\": 5, \"available\": 3}",
                        Map.of(),
                        DistributionException.InsufficientProxies.class,
                        "insufficient_proxies"),
                new Row(
                        409,
                        "{\"error\": \"request_in_progress\", \"message\": \"...\"}",
                        Map.of(),
                        DistributionException.RequestInProgress.class,
                        "request_in_progress"),
                new Row(
                        422,
                        "{\"error\": \"idempotency_key_reused\", \"message\": \"...\"}",
                        Map.of(),
                        DistributionException.IdempotencyMismatch.class,
                        "idempotency_key_reused"),
                new Row(
                        429,
                        "{\"error\": \"quota_exceeded\", \"message\": \"hourly extraction quota of 10 proxies is used up\","
                                + " \"limit\": 10, \"used\": 10, \"retryAfterSeconds\": 1200}",
                        Map.of("Retry-After", "1200"),
                        DistributionException.QuotaExceeded.class,
                        "quota_exceeded"),
                new Row(
                        503,
                        "{\"error\": \"store_unavailable\"}",
                        Map.of(),
                        DistributionException.StoreUnavailable.class,
                        "store_unavailable"),
                new Row(
                        503,
                        "{\"error\": \"credentials_unavailable\", \"message\": \"1 of the extracted proxies ...\"}",
                        Map.of(),
                        DistributionException.CredentialsUnavailable.class,
                        "credentials_unavailable"),
                new Row(
                        500,
                        "{\"error\": \"internal\", \"message\": \"boom\"}",
                        Map.of(),
                        DistributionException.UnexpectedResponse.class,
                        "internal"),
                new Row(502, "<html>bad gateway</html>", Map.of(), DistributionException.UnexpectedResponse.class, ""),
                new Row(200, "{\"requested\": 1}", Map.of(), DistributionException.UnexpectedResponse.class, ""),
                new Row(200, "[]", Map.of(), DistributionException.UnexpectedResponse.class, ""));
        try (DistributionClient c = client()) {
            for (Row row : rows) {
                answer(row.status(), row.body(), row.headers());
                DistributionException e =
                        assertThrows(DistributionException.class, () -> c.extract(Extraction.of(5)), row.toString());
                assertInstanceOf(row.type(), e, row.toString());
                assertEquals(row.status(), e.status(), row.toString());
                assertEquals(row.code(), e.errorCode(), row.toString());
                assertFalse(e.getMessage().contains("tok-123"));
                assertFalse(e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }

    @Test
    void errorFieldsAreRead() {
        try (DistributionClient c = client()) {
            answer(409, "{\"error\": \"insufficient_proxies\", \"requested\": 5, \"available\": 3}");
            var i = assertThrows(DistributionException.InsufficientProxies.class, () -> c.extract(Extraction.of(5)));
            assertEquals(5, i.requested());
            assertEquals(3, i.available());

            answer(
                    429,
                    "{\"error\": \"quota_exceeded\", \"message\": \"m\", \"limit\": 10, \"used\": 9,"
                            + " \"retryAfterSeconds\": 1200}");
            var q = assertThrows(DistributionException.QuotaExceeded.class, () -> c.extract(Extraction.of(5)));
            assertEquals(10, q.limit());
            assertEquals(9, q.used());
            assertEquals(Duration.ofSeconds(1200), q.retryAfter());

            answer(
                    429,
                    "{\"error\": \"quota_exceeded\", \"message\": \"m\", \"limit\": 10, \"used\": 10}",
                    Map.of("Retry-After", "77"));
            var header = assertThrows(DistributionException.QuotaExceeded.class, () -> c.extract(Extraction.of(5)));
            assertEquals(Duration.ofSeconds(77), header.retryAfter());

            answer(400, "{\"error\": \"invalid_request\", \"message\": \"filter.protocol must be http\"}");
            var bad = assertThrows(DistributionException.InvalidRequest.class, () -> c.extract(Extraction.of(5)));
            assertEquals("filter.protocol must be http", bad.serverMessage());
        }
    }

    @Test
    void aClosedPortIsServerUnreachableWithConnectionRefused() {
        int port = TestPorts.closedPort();
        URI base = URI.create("http://127.0.0.1:" + port);
        try (DistributionClient c = DistributionClient.builder(base)
                .token("t")
                .timeout(Duration.ofSeconds(2))
                .build()) {
            var e = assertThrows(DistributionException.ServerUnreachable.class, () -> c.extract(Extraction.of(1)));
            assertEquals("connection refused", e.reason());
            assertEquals(base, e.server());
            assertEquals(0, e.status());
            assertEquals("cannot reach " + base + ": connection refused", e.getMessage());
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        server.removeContext("/");
        server.createContext("/", ex -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        try (DistributionClient c = DistributionClient.builder(base)
                .token("t")
                .timeout(Duration.ofMillis(300))
                .build()) {
            var ticker = dev.proxypool.core.time.Clocks.monotonic();
            long t0 = ticker.read();
            var e = assertThrows(DistributionException.ServerUnreachable.class, () -> c.extract(Extraction.of(1)));
            assertTrue(e.reason().startsWith("timed out"), e.reason());
            assertTrue(ticker.read() - t0 < TimeUnit.SECONDS.toNanos(5));
        } finally {
            release.countDown();
        }
    }

    @Test
    void anInProcessOnlyMaxHealthAgeIsRefusedBeforeAnythingIsSent() {
        answer(200, "{\"requested\": 1, \"extracted\": 0, \"proxies\": []}");
        try (DistributionClient c = client()) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> c.extract(Extraction.of(1).maxHealthAge(Duration.ofMinutes(5))));
            assertTrue(e.getMessage().contains("maxHealthAge"), e.getMessage());
            assertEquals(null, seen.get(), "nothing was sent");
        }
    }

    @Test
    void callsAndBuildersRefuseBadValuesNamingThem() {
        record Bad(Runnable r, String fragment) {}
        List<Bad> bad = List.of(
                new Bad(() -> Extraction.of(0), "count"),
                new Bad(() -> Extraction.of(1001), "count"),
                new Bad(() -> Extraction.of(1).idempotencyKey(""), "Idempotency-Key"),
                new Bad(() -> Extraction.of(1).idempotencyKey("x".repeat(256)), "Idempotency-Key"),
                new Bad(() -> Extraction.of(1).idempotencyKey("a\nb"), "Idempotency-Key"),
                new Bad(() -> Extraction.of(1).minRemainingTtl(Duration.ofSeconds(-1)), "minRemainingTtl"),
                new Bad(() -> Extraction.of(1).country(" "), "filter.country"),
                new Bad(() -> Extraction.of(1).country("US").label("country", "DE"), "filter.country"),
                new Bad(() -> DistributionClient.builder(URI.create("ftp://x")), "http://"),
                new Bad(() -> DistributionClient.builder(URI.create("http://u:p@x")), "user info"),
                new Bad(() -> DistributionClient.builder(URI.create("http://x")).build(), "token"),
                new Bad(() -> DistributionClient.builder(URI.create("http://x")).token("a b"), "token"),
                new Bad(() -> DistributionClient.builder(URI.create("http://x")).timeout(Duration.ZERO), "timeout"));
        for (Bad b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b.r()::run, b.fragment());
            assertTrue(e.getMessage().contains(b.fragment()), e.getMessage());
        }
        assertFalse(Extraction.of(2).isAllOrNothing());
        assertEquals(
                URI.create("https://lb.example/pp/v1/extractions"),
                DistributionClient.endpoint(URI.create("https://lb.example/pp/")));
    }
}
