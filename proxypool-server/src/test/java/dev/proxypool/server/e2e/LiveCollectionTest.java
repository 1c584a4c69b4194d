package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh install: the server starts with no upstream at all, and a provider and an upstream added
 * through the admin API are collected live (no restart), serve gateway traffic, and leave the pool
 * when the upstream is deleted.
 */
class LiveCollectionTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void anUpstreamAddedToAServerStartedWithoutUpstreamsIsCollectedAndServesTheGateway() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build();
                    HttpClient api = HttpClient.newHttpClient()) {
                assertEquals(
                        0,
                        EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(),
                        "nothing configured, nothing collected");

                assertEquals(
                        201,
                        admin(
                                        api,
                                        server,
                                        "POST",
                                        "/v1/admin/providers",
                                        "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"inv.jsonl\"}")
                                .statusCode());
                assertEquals(
                        201,
                        admin(
                                        api,
                                        server,
                                        "POST",
                                        "/v1/admin/upstreams",
                                        "{\"name\": \"lab\", \"provider\": \"lab\", \"validate\": false}")
                                .statusCode());
                await(
                        () -> EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                                .anyMatch(p -> p.upstream().equals("lab")),
                        "the upstream added through the admin API is collected without a restart");
                String status =
                        admin(api, server, "GET", "/v1/admin/pipeline", null).body();
                assertTrue(status.contains("\"collecting\":true") || status.contains("\"collecting\": true"), status);
                assertTrue(status.contains("\"lab\""), status);

                long before = proxy.requests();
                HttpResponse<String> through = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, through.statusCode(), through.body());
                assertTrue(proxy.requests() > before, "the gateway request went through the collected proxy");

                assertEquals(
                        204,
                        admin(api, server, "DELETE", "/v1/admin/upstreams/lab", null)
                                .statusCode());
                await(
                        () -> EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                                .noneMatch(p -> p.upstream().equals("lab")),
                        "the deleted upstream's proxies leave the pool");
                HttpResponse<String> after = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, after.statusCode(), "no candidate once the upstream is gone: " + after.body());
            }
        }
    }

    static HttpResponse<String> admin(HttpClient api, ProxyPoolServer server, String method, String path, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .header("Authorization", ADMIN)
                .timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return api.send(
                b.method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Waits at most 15 s for {@code condition}. */
    static void await(BooleanSupplier condition, String what) {
        Await.atMost(Duration.ofSeconds(15)).until(what, condition);
    }
}
