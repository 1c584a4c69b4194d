package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code onNoCandidate: wait} through the real gateway when no proxy matches at all (design G10:
 * "no proxy qualifies"), not only when every matching one is busy: the request waits up to
 * {@code waitTimeout} for one to appear, is served by a proxy published during the wait (an
 * upstream added through the admin API), and without one is answered {@code 503 no_candidate}
 * once the timeout has passed.
 */
@Tag("slow")
class WaitForAProxyTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";
    private static final Duration PENDING = Duration.ofMillis(400);

    @TempDir
    Path dir;

    private ProxyPoolServer start(Duration waitTimeout) throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"] }
                routings:
                  - { name: patient, onNoCandidate: wait, waitTimeout: %dms }
                """.formatted(waitTimeout.toMillis()));
        return ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
    }

    private static HttpClient gateway(ProxyPoolServer server) {
        return HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build();
    }

    @Test
    void aRequestWithNoMatchingProxyWaitsAndIsServedByOnePublishedMeanwhile() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start();
                ProxyPoolServer server = start(Duration.ofSeconds(20));
                HttpClient gw = gateway(server);
                HttpClient api = HttpClient.newHttpClient()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            assertEquals(0, EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(), "no proxy at all");

            Ticker clock = Ticker.system();
            long sent = clock.read();
            CompletableFuture<HttpResponse<String>> waiting = gw.sendAsync(
                    HttpRequest.newBuilder(origin.uri("/echo"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            // the request is in the gateway and still unanswered: on the old code it was a 503 at once
            Await.atMost(Duration.ofSeconds(10))
                    .until(
                            "the request to wait for a proxy rather than be refused",
                            () -> !waiting.isDone() && clock.read() - sent >= PENDING.toNanos());

            assertEquals(
                    201,
                    LiveCollectionTest.admin(
                                    api,
                                    server,
                                    "POST",
                                    "/v1/admin/providers",
                                    "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"inv.jsonl\"}")
                            .statusCode());
            assertEquals(
                    201,
                    LiveCollectionTest.admin(
                                    api,
                                    server,
                                    "POST",
                                    "/v1/admin/upstreams",
                                    "{\"name\": \"lab\", \"provider\": \"lab\", \"validate\": false}")
                            .statusCode());

            HttpResponse<String> served = waiting.get(30, TimeUnit.SECONDS);
            assertEquals(200, served.statusCode(), served.body());
            assertTrue(proxy.requests() > 0, "served through the proxy published during the wait");
            assertTrue(clock.read() - sent >= PENDING.toNanos(), "it was answered after the publish, not before");
        }
    }

    @Test
    void withoutAPublishTheWaitEndsIn503AfterTheWaitTimeout() throws Exception {
        Duration waitTimeout = Duration.ofMillis(1_500);
        try (FakeOrigin origin = FakeOrigin.start();
                ProxyPoolServer server = start(waitTimeout);
                HttpClient gw = gateway(server)) {
            Ticker clock = Ticker.system();
            long sent = clock.read();
            HttpResponse<String> refused = gw.send(
                    HttpRequest.newBuilder(origin.uri("/echo"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(clock.read() - sent);
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(
                    "no_candidate",
                    refused.headers().firstValue("X-ProxyPool-Error").orElse(""),
                    refused.headers().map().toString());
            assertTrue(
                    waitedMs >= waitTimeout.toMillis() - 50,
                    "answered after " + waitedMs + " ms, before the waitTimeout of " + waitTimeout.toMillis() + " ms");
            assertTrue(waitedMs < waitTimeout.toMillis() + 10_000, "answered after " + waitedMs + " ms");
        }
    }
}
