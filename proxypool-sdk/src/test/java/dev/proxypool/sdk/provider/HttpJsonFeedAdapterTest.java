package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpJsonFeedAdapterTest {

    private static final String VENDOR_FEED = """
            {"code": 0, "data": {"proxies": [
              {"ip": "203.0.113.7", "port": 8000, "protocol": "http", "expire_time": 1767229200,
               "geo": {"cc": "US"}, "isp": "Example Mobile"},
              {"ip": "203.0.113.8", "port": "1080", "protocol": "socks5", "expire_time": "2026-01-01T00:30:00Z",
               "geo": {"cc": "DE"}},
              {"ip": "203.0.113.9", "port": 3128, "protocol": "https", "expire_time": 1767227400000}
            ]}}
            """;

    @TempDir
    Path dir;

    Fx fx;
    FeedServer server;
    final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        fx = new Fx(dir);
        server = new FeedServer();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    private ProviderAdapter feed(String path, Map<String, String> extra, Map<String, String> fields) {
        java.util.HashMap<String, String> settings = new java.util.HashMap<>(extra);
        settings.put("url", server.url(path));
        return fx.adapter("vendor-a", "http_json_feed", settings, fields);
    }

    private ProviderAdapter feed(String path, Map<String, String> extra) {
        return feed(path, extra, Map.of());
    }

    /**
     * Issue 37 item 17: an HTTP/1.0 answer without Content-Length (the body ends when the server
     * closes, as HTTP/1.0 allows) is read to EOF, from a raw socket server that answers exactly so.
     */
    @Test
    void readsAnHttp10AnswerWithoutContentLengthToEof() throws Exception {
        byte[] body = VENDOR_FEED.getBytes(StandardCharsets.UTF_8);
        try (java.net.ServerSocket raw = new java.net.ServerSocket(0, 4, java.net.InetAddress.getLoopbackAddress())) {
            Thread answering = Thread.ofVirtual().start(() -> {
                try (java.net.Socket c = raw.accept()) {
                    java.io.InputStream in = c.getInputStream();
                    int matched = 0;
                    byte[] end = {'\r', '\n', '\r', '\n'};
                    for (int b; matched < 4 && (b = in.read()) >= 0; ) {
                        matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
                    }
                    OutputStream out = c.getOutputStream();
                    out.write("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(body, 0, body.length / 2);
                    out.flush();
                    out.write(body, body.length / 2, body.length - body.length / 2);
                    out.flush();
                } catch (IOException e) {
                    // the test's assertions say what went wrong
                }
            });
            java.util.HashMap<String, String> settings = new java.util.HashMap<>();
            settings.put("url", "http://127.0.0.1:" + raw.getLocalPort() + "/v1/proxies");
            settings.put("listField", "data.proxies");
            ProviderAdapter adapter = fx.adapter(
                    "vendor-a", "http_json_feed", settings, Map.of("host", "ip", "expiresAt", "expire_time"));
            FetchReport report = fetch(adapter);
            answering.join(java.time.Duration.ofSeconds(10));
            assertEquals(new FetchOutcome.Success(3), report.outcome(), report::toString);
            assertEquals(List.of("203.0.113.7", "203.0.113.8", "203.0.113.9"), Fx.hosts(report));
        }
    }

    @Test
    void mapsVendorFieldsFromANestedListWithEveryExpiryForm() {
        server.json("/v1/proxies", VENDOR_FEED);
        ProviderAdapter adapter = feed(
                "/v1/proxies",
                Map.of("listField", "data.proxies", "labels.type", "mobile"),
                Map.of("host", "ip", "expiresAt", "expire_time", "labels.country", "geo.cc", "labels.carrier", "isp"));

        FetchReport report = adapter.fetch(FetchContext.of("vendor-a-us", Map.of()));

        assertEquals(new FetchOutcome.Success(3), report.outcome(), report::toString);
        Proxy a = report.candidates().get(0);
        assertEquals("203.0.113.7", a.host());
        assertEquals(Labels.of("country", "US", "carrier", "Example Mobile", "type", "mobile"), a.labels());
        assertEquals(Instant.parse("2026-01-01T01:00:00Z"), a.expiresAt(), "epoch seconds");
        Proxy b = report.candidates().get(1);
        assertEquals(Protocol.SOCKS5, b.protocol());
        assertEquals(1080, b.port());
        assertEquals(Instant.parse("2026-01-01T00:30:00Z"), b.expiresAt(), "ISO-8601");
        assertEquals(
                Instant.parse("2026-01-01T00:30:00Z"),
                report.candidates().get(2).expiresAt(),
                "epoch millis");
        assertEquals("vendor-a", a.provider());
        assertEquals("vendor-a-us", a.upstream());
        assertEquals(VENDOR_FEED.getBytes(StandardCharsets.UTF_8).length, report.bytesRead());
    }

    @Test
    void acceptsATopLevelArrayWithTtlSeconds() {
        server.json("/list", """
                [{"host": "203.0.113.10", "port": 8080, "protocol": "http", "ttl": 600}]""");
        FetchReport report = fetch(feed("/list", Map.of(), Map.of("ttlSeconds", "ttl")));
        assertEquals(new FetchOutcome.Success(1), report.outcome());
        assertEquals(
                fx.clock.instant().plusSeconds(600), report.candidates().get(0).expiresAt());
    }

    @Test
    void badRecordsAreCountedByReasonAndGoodOnesKept() {
        server.json("/mixed", """
                [{"host": "203.0.113.1", "port": 8080, "protocol": "http"},
                 {"port": 8080, "protocol": "http"},
                 {"host": "203.0.113.2", "protocol": "http"},
                 {"host": "203.0.113.3", "port": 8080, "protocol": "gopher"},
                 {"host": "203.0.113.4", "port": 8080},
                 {"host": {"nested": true}, "port": 8080, "protocol": "http"},
                 "203.0.113.5:8080",
                 {"host": "203.0.113.6", "port": 8080, "protocol": "socks5", "ttlSeconds": "soon"},
                 {"host": "203.0.113.7", "port": 8080, "protocol": "socks5", "expiresAt": 1700000000}]""");
        FetchReport report = fetch(feed("/mixed", Map.of()));

        assertEquals(List.of("203.0.113.1"), Fx.hosts(report));
        assertEquals(
                Map.of(
                        "missing_host",
                        1,
                        "missing_port",
                        1,
                        "invalid_protocol",
                        1,
                        "missing_protocol",
                        1,
                        "invalid_host",
                        1,
                        "malformed_record",
                        1,
                        "invalid_ttl",
                        1,
                        "expired",
                        1),
                report.drops());
        assertEquals(new DropSample(7, "malformed_record"), report.dropSamples().get(5));
    }

    @Test
    void anEmptyListIsEmpty() {
        server.json("/empty", "{\"data\": {\"proxies\": []}}");
        FetchReport report = fetch(feed("/empty", Map.of("listField", "data.proxies")));
        assertEquals(FetchOutcome.EMPTY, report.outcome());
        assertFalse(report.isError());
    }

    @Test
    void nonListJsonIsAParseError() {
        server.json("/obj", "{\"error\": \"quota exceeded\"}");
        server.json("/num", "42");
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/obj", Map.of())));
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/obj", Map.of("listField", "data.proxies"))));
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/num", Map.of())));
    }

    @Test
    void brokenJsonOrHtmlIsAParseErrorNeverEmpty() {
        server.json("/broken", "[{\"host\": \"203.0.113.1\", \"port\": 80");
        server.respond("/html", 200, "text/html", "<html><body>maintenance</body></html>");
        server.json("/strings", "[\"203.0.113.1:80\", \"203.0.113.2:80\"]");
        server.json("/trailing", "[{\"host\": \"203.0.113.1\", \"port\": 80, \"protocol\": \"http\"}] <html>");
        server.json("/spaces", "[{\"host\": \"203.0.113.1\", \"port\": 80, \"protocol\": \"http\"}]  \n ");
        FetchReport broken = fetch(feed("/broken", Map.of()));
        assertError(FetchOutcome.ErrorKind.PARSE, broken);
        assertTrue(((FetchOutcome.Error) broken.outcome()).detail().startsWith("not valid JSON"));
        assertFalse(((FetchOutcome.Error) broken.outcome()).detail().contains("\n"), "no raw dump of the input");
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/html", Map.of())));
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/strings", Map.of())));
        assertError(FetchOutcome.ErrorKind.PARSE, fetch(feed("/trailing", Map.of())));
        assertEquals(
                new FetchOutcome.Success(1), fetch(feed("/spaces", Map.of())).outcome());
    }

    @Test
    void httpStatusesAreClassified() {
        server.respond("/500", 500, "text/plain", "boom");
        server.respond("/404", 404, "text/plain", "");
        server.respond("/401", 401, "text/plain", "");
        server.respond("/403", 403, "text/plain", "");
        server.handle("/302", ex -> {
            ex.getResponseHeaders().set("Location", server.url("/elsewhere"));
            ex.sendResponseHeaders(302, -1);
        });
        FetchReport r500 = fetch(feed("/500", Map.of()));
        assertError(FetchOutcome.ErrorKind.HTTP_STATUS, r500);
        assertEquals("HTTP 500", ((FetchOutcome.Error) r500.outcome()).detail());
        assertError(FetchOutcome.ErrorKind.HTTP_STATUS, fetch(feed("/404", Map.of())));
        assertError(FetchOutcome.ErrorKind.AUTH, fetch(feed("/401", Map.of())));
        assertError(FetchOutcome.ErrorKind.AUTH, fetch(feed("/403", Map.of())));
        assertError(FetchOutcome.ErrorKind.HTTP_STATUS, fetch(feed("/302", Map.of())));
        assertEquals(
                0,
                server.seen.stream().filter(s -> s.path().equals("/elsewhere")).count(),
                "redirects are not followed");
    }

    @Test
    void aSlowFeedTimesOut() {
        server.handle("/slow", ex -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long t0 = dev.proxypool.core.time.Ticker.system().read();
        FetchReport report = fetch(feed("/slow", Map.of("timeout", "300ms")));
        long ms = (dev.proxypool.core.time.Ticker.system().read() - t0) / 1_000_000;
        assertError(FetchOutcome.ErrorKind.TIMEOUT, report);
        assertTrue(ms < 5_000, "timed out after " + ms + " ms");
    }

    @Test
    void aRefusedConnectionIsANetworkError() throws IOException {
        int port = TestPorts.closedPort();
        ProviderAdapter adapter = fx.adapter("http_json_feed", Map.of("url", "http://127.0.0.1:" + port + "/x"));
        assertError(FetchOutcome.ErrorKind.NETWORK, fetch(adapter));
    }

    @Test
    void aStreamedFeedOverTheCapStopsReadingAtTheCap() {
        int cap = 64 * 1024;
        int[] written = new int[1];
        server.handle("/huge", ex -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 0); // chunked: no declared length to refuse early
            byte[] chunk = new byte[8192];
            Arrays.fill(chunk, (byte) ' ');
            chunk[0] = '[';
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 2048; i++) { // 16 MB at most
                    out.write(chunk);
                    chunk[0] = ' ';
                    written[0] += chunk.length;
                }
            } catch (IOException expected) {
                // the client hung up at the cap
            }
        });
        FetchReport report = fetch(feed("/huge", Map.of("maxBytes", String.valueOf(cap))));
        assertError(FetchOutcome.ErrorKind.SIZE_LIMIT, report);
        assertEquals(cap + 1, report.bytesRead(), "read the cap plus the one byte that proves it is over");
    }

    @Test
    void aDeclaredLengthOverTheCapIsRefusedBeforeReading() {
        server.json("/big", "[" + " ".repeat(10_000) + "]");
        FetchReport report = fetch(feed("/big", Map.of("maxBytes", "1KB")));
        assertError(FetchOutcome.ErrorKind.SIZE_LIMIT, report);
        assertEquals(0, report.bytesRead());
    }

    @Test
    void aBearerTokenComesFromTheEnvironmentAndNeverShowsInReportsOrLogs() {
        String token = "tok-" + "s3cr3t-value-123";
        fx.env.put("VENDOR_A_TOKEN", token);
        server.respond("/auth", 500, "text/plain", "");
        server.json("/ok", "[]");
        LogCapture logs = LogCapture.start();
        try {
            FetchReport failed = fetch(feed("/auth", Map.of("tokenEnv", "VENDOR_A_TOKEN")));
            FetchReport ok = fetch(feed("/ok", Map.of("tokenEnv", "VENDOR_A_TOKEN")));
            new SourceSet(
                            List.of(new UpstreamSource(
                                    "u",
                                    "vendor-a",
                                    feed("/auth", Map.of("tokenEnv", "VENDOR_A_TOKEN")),
                                    Map.of(),
                                    java.time.Duration.ofSeconds(5))),
                            fx.clock)
                    .fetchAll();
            assertEquals("Bearer " + token, server.seen.get(0).authorization());
            assertEquals("Bearer " + token, server.seen.get(1).authorization());
            assertFalse(failed.toString().contains(token));
            assertFalse(ok.toString().contains(token));
        } finally {
            logs.stop();
        }
        assertTrue(logs.text().contains("http_status"), "the failure is logged: " + logs.text());
        assertFalse(logs.text().contains(token), "the token is never logged");
        assertFalse(logs.text().contains("s3cr3t"));
    }

    @Test
    void aMissingTokenVariableIsAnAuthErrorNamingTheVariableOnly() {
        server.json("/ok", "[]");
        FetchReport report = fetch(feed("/ok", Map.of("tokenEnv", "VENDOR_A_TOKEN")));
        assertError(FetchOutcome.ErrorKind.AUTH, report);
        assertEquals(
                "environment variable VENDOR_A_TOKEN is not set", ((FetchOutcome.Error) report.outcome()).detail());
        assertTrue(server.seen.isEmpty(), "no unauthenticated request is sent");
    }

    @Test
    void basicAuthTakesThePasswordFromTheEnvironment() {
        fx.env.put("VENDOR_B_PASSWORD", "pw:with:colons");
        server.json("/basic", "[]");
        fetch(feed("/basic", Map.of("username", "acct", "passwordEnv", "VENDOR_B_PASSWORD")));
        String expected =
                "Basic " + Base64.getEncoder().encodeToString("acct:pw:with:colons".getBytes(StandardCharsets.UTF_8));
        assertEquals(expected, server.seen.get(0).authorization());
    }

    @Test
    void upstreamParamsFillTheUrlTemplateEncodedAndBecomeLabels() {
        server.json("/api", "[{\"host\": \"203.0.113.50\", \"port\": 8080}]");
        java.util.HashMap<String, String> settings = new java.util.HashMap<>();
        settings.put("url", server.url("/api") + "?country={country}&count={count}&city={city}");
        ProviderAdapter adapter = fx.adapter("vendor-a", "http_json_feed", settings, Map.of());

        FetchReport report =
                fetch(adapter, Map.of("country", "US", "count", "50", "city", "New York&x=1", "protocol", "socks5"));

        assertEquals(new FetchOutcome.Success(1), report.outcome(), report::toString);
        String query = server.seen.get(0).uri().getRawQuery();
        assertEquals(
                java.util.Set.of("country=US", "count=50", "city=New%20York%26x%3D1"),
                java.util.Set.of(query.split("&")),
                "each value encoded, so it cannot add parameters: " + query);
        Proxy p = report.candidates().get(0);
        assertEquals(Protocol.SOCKS5, p.protocol(), "the protocol param is the default protocol");
        assertEquals(Labels.of("country", "US", "city", "New York&x=1"), p.labels(), "count is no label key");
    }

    @Test
    void aPlaceholderWithoutAParamIsATemplateError() {
        server.json("/api", "[]");
        ProviderAdapter adapter = fx.adapter("http_json_feed", Map.of("url", server.url("/api") + "?c={country}"));
        FetchReport report = fetch(adapter, Map.of());
        assertError(FetchOutcome.ErrorKind.TEMPLATE, report);
        assertTrue(((FetchOutcome.Error) report.outcome()).detail().contains("{country}"));
        assertTrue(server.seen.isEmpty());
    }

    @Test
    void aCredentialRefFieldIsKeptAsARefAndDefaultsFromSettings() {
        server.json("/refs", """
                [{"host": "203.0.113.60", "port": 8000, "protocol": "http", "account": "vendor-a-acct2"},
                 {"host": "203.0.113.61", "port": 8000, "protocol": "http"}]""");
        FetchReport report =
                fetch(feed("/refs", Map.of("credentialRef", "vendor-a"), Map.of("credentialRef", "account")));
        assertEquals(
                CredentialRef.of("vendor-a-acct2"), report.candidates().get(0).credentialRef());
        assertEquals(CredentialRef.of("vendor-a"), report.candidates().get(1).credentialRef());
    }
}
