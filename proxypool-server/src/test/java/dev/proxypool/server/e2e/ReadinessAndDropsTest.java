package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.security.LogCapture;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.TestPorts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness follows the first collection and names routings without candidates; what a collection
 * cycle left out shows per upstream and reason in {@code /v1/admin/pipeline} and in one log line
 * per cycle. The upstream is a real HTTP list source that holds its answer until the test lets it
 * go, so the window between "listening" and "collected" can be observed.
 */
class ReadinessAndDropsTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void notReadyUntilTheFirstCollectionThenDropsByReasonAreVisible() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        int dead = TestPorts.closedPort();
        HttpServer list = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        try (FakeHttpProxy good = FakeHttpProxy.start();
                LogCapture logs = LogCapture.install()) {
            list.createContext("/list", ex -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byte[] body = ("http://127.0.0.1:" + good.port() + "\nhttp://127.0.0.1:" + dead
                                + "\nthis is not a proxy\n")
                        .getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            list.start();
            int apiPort = freePort();
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + good.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: %d }
                    admin: { token: admin-token-0123456789 }
                    providers:
                      - { name: vendor, type: text_list, url: "http://127.0.0.1:%d/list" }
                      - { name: lab, type: jsonl_inventory, path: inv.jsonl }
                    upstreams:
                      - { name: vendor, provider: vendor, validate: true }
                      - { name: lab, provider: lab, validate: false }
                    routings:
                      - { name: nowhere, match: { hosts: ["*.nowhere.example"] }, filter: { labels: { kind: none } } }
                      - { name: default }
                    health: { active: { enabled: false } }
                    """.formatted(apiPort, list.getAddress().getPort()));
            CompletableFuture<ProxyPoolServer> starting = CompletableFuture.supplyAsync(() -> {
                try {
                    return ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                } catch (RuntimeException e) {
                    throw e;
                }
            });
            try (HttpClient http = HttpClient.newHttpClient()) {
                URI ready = URI.create("http://127.0.0.1:" + apiPort + "/observe/health/ready");
                HttpResponse<String> before = awaitAnswer(http, ready);
                assertEquals(503, before.statusCode(), "listening, nothing collected yet: not ready. " + before.body());
                assertTrue(before.body().contains("collection"), before.body());

                release.countDown();
                try (ProxyPoolServer server = starting.get(60, TimeUnit.SECONDS)) {
                    HttpResponse<String> after =
                            http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, after.statusCode(), "ready once the first collection ended: " + after.body());
                    assertTrue(
                            after.body().replace(" ", "").contains("\"routingsWithoutCandidates\":\"nowhere\""),
                            "the routing no proxy can serve is named, the default one (lab's proxy) is not: "
                                    + after.body());

                    HttpResponse<String> pipeline = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort + "/v1/admin/pipeline"))
                                    .header("Authorization", ADMIN)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    String body = pipeline.body().replace(" ", "");
                    // the validator sees the fake proxy's loopback exit as its own address (a transparent proxy)
                    assertTrue(
                            body.contains("\"lastDrops\":{\"malformed_record\":1,\"validation_connection_refused\":1,"
                                    + "\"validation_direct_address_seen\":1}"),
                            "the parse drop and the validator's rejections: " + body);
                    assertTrue(body.contains("\"published\":0"), "nothing of vendor published: " + body);

                    List<LogCapture.Line> cycles = logs.lines().stream()
                            .filter(l -> l.text().contains("collection cycle:"))
                            .toList();
                    assertEquals(1, cycles.size(), "one log line for the one cycle: " + cycles);
                    String line = cycles.getFirst().text();
                    assertTrue(
                            line.contains("vendor: success, 2 candidates, 0 published, drops {malformed_record=1,"
                                    + " validation_connection_refused=1, validation_direct_address_seen=1}"),
                            line);
                    assertTrue(line.contains("lab: success, 1 candidates, 1 published, drops {}"), line);
                    assertTrue(!line.contains(String.valueOf(dead)), "no proxy address in the log line: " + line);
                }
            }
        } finally {
            release.countDown();
            list.stop(0);
        }
    }

    @Test
    void aServerWithoutUpstreamsIsReadyAtOnce() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                """);
        try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .configDir(dir)
                        .start();
                HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> ready = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/observe/health/ready"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("firstCollectionDone"), "the collection check answers: " + ready.body());
            assertTrue(ready.body().contains("default"), "the catch-all routing has no candidate yet: " + ready.body());
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Polls until the API listener answers (bounded: 30 s). */
    private static HttpResponse<String> awaitAnswer(HttpClient http, URI uri) throws Exception {
        return Await.atMost(Duration.ofSeconds(30))
                .until(
                        "the API listener to answer " + uri,
                        () -> http.send(
                                HttpRequest.newBuilder(uri)
                                        .timeout(Duration.ofSeconds(5))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString()),
                        r -> true);
    }
}
