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
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An admin change through the REST API reaches the running gateway without a restart, and is audited. */
class AdminLiveChangeTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void aRoutingAddedThroughTheAdminApiServesTheNextRequest() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy a = FakeHttpProxy.start();
                FakeHttpProxy b = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + a.port()
                            + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"a\"}}\n"
                            + "{\"host\": \"127.0.0.1\", \"port\": " + b.port()
                            + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"b\"}}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    routings: [{ name: all-a, filter: { labels: { kind: a } } }]
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build();
                    HttpClient api = HttpClient.newHttpClient()) {
                HttpRequest viaB = HttpRequest.newBuilder(origin.uri("/echo"))
                        .header("X-Route", "b")
                        .timeout(Duration.ofSeconds(10))
                        .build();
                assertEquals(
                        "all-a",
                        gw.send(viaB, HttpResponse.BodyHandlers.ofString())
                                .headers()
                                .firstValue("X-ProxyPool-Routing")
                                .orElse(""));
                long versionBefore =
                        EmbeddedProxyPool.engineOf(server.pool()).snapshot().version();

                HttpResponse<String> created = api.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/routings"))
                                .header("Authorization", ADMIN)
                                .header("Content-Type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"name\": \"to-b\", \"position\": 0,"
                                                        + " \"match\": {\"headers\": {\"X-Route\": \"b\"}}, \"filter\": {\"labels\": {\"kind\": \"b\"}}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());

                HttpResponse<String> after = gw.send(viaB, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, after.statusCode());
                assertEquals(
                        "to-b",
                        after.headers().firstValue("X-ProxyPool-Routing").orElse(""),
                        "live without restart");
                assertTrue(
                        EmbeddedProxyPool.engineOf(server.pool()).snapshot().version() > versionBefore,
                        "a new snapshot version");

                HttpResponse<String> audit = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/audit"))
                                .header("Authorization", ADMIN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, audit.statusCode());
                assertTrue(audit.body().contains("to-b"), audit.body());

                HttpResponse<String> noToken = api.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/routings"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(401, noToken.statusCode());
            }
        }
    }

    private static String inventoryLine(String host) {
        return "{\"host\": \"" + host + "\", \"port\": 8000, \"protocol\": \"http\"}\n";
    }

    private static HttpResponse<String> admin(
            HttpClient api, ProxyPoolServer server, String method, String path, String body) throws Exception {
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

    /** Waits (bounded) until the pool holds exactly {@code hosts} for {@code upstream}. */
    private static void awaitHosts(ProxyPoolServer server, String upstream, java.util.Set<String> hosts)
            throws InterruptedException {
        Await.atMost(Duration.ofSeconds(15))
                .until(
                        "upstream " + upstream + " in the pool to be " + hosts,
                        () -> hostsOf(server, upstream),
                        hosts::equals);
    }

    private static java.util.Set<String> hostsOf(ProxyPoolServer server, String upstream) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .filter(p -> p.upstream().equals(upstream))
                .forEach(p -> out.add(p.key().host()));
        return out;
    }

    @Test
    void upstreamsAndProvidersChangedThroughTheAdminApiAreCollectedWithoutARestart() throws Exception {
        Files.writeString(dir.resolve("a.jsonl"), inventoryLine("203.0.113.1"));
        Files.writeString(dir.resolve("b.jsonl"), inventoryLine("203.0.113.2") + inventoryLine("203.0.113.3"));
        Files.writeString(dir.resolve("c.jsonl"), inventoryLine("203.0.113.4"));
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                providers: [{ name: lab, type: jsonl_inventory, path: a.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                routings: [{ name: all }]
                """);
        try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .configDir(dir)
                        .start();
                HttpClient api = HttpClient.newHttpClient()) {
            awaitHosts(server, "lab", Set.of("203.0.113.1"));

            // a new provider and upstream: collected within the pipeline's tick
            assertEquals(
                    201,
                    admin(
                                    api,
                                    server,
                                    "POST",
                                    "/v1/admin/providers",
                                    "{\"name\": \"lab2\", \"type\": \"jsonl_inventory\", \"path\": \"b.jsonl\"}")
                            .statusCode());
            assertEquals(
                    201,
                    admin(
                                    api,
                                    server,
                                    "POST",
                                    "/v1/admin/upstreams",
                                    "{\"name\": \"lab2\", \"provider\": \"lab2\", \"validate\": false}")
                            .statusCode());
            awaitHosts(server, "lab2", Set.of("203.0.113.2", "203.0.113.3"));
            assertTrue(
                    admin(api, server, "GET", "/v1/admin/pipeline", null).body().contains("lab2"),
                    "listed in the pipeline status");

            // the existing upstream's provider reads another file: fetched again at once
            assertEquals(
                    200,
                    admin(
                                    api,
                                    server,
                                    "PUT",
                                    "/v1/admin/providers/lab",
                                    "{\"type\": \"jsonl_inventory\", \"path\": \"c.jsonl\"}")
                            .statusCode());
            awaitHosts(server, "lab", Set.of("203.0.113.1", "203.0.113.4"));

            // removed: its proxies leave the pool at once
            assertEquals(
                    204,
                    admin(api, server, "DELETE", "/v1/admin/upstreams/lab2", null)
                            .statusCode());
            assertEquals(
                    Set.of(), hostsOf(server, "lab2"), "the removed upstream's proxies are withdrawn with the change");
            assertEquals(
                    404,
                    admin(api, server, "POST", "/v1/admin/upstreams/lab2/fetch", null)
                            .statusCode());
            assertEquals(Set.of("203.0.113.1", "203.0.113.4"), hostsOf(server, "lab"), "the other upstream untouched");
        }
    }
}
