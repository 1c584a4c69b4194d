package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
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
            Files.writeString(dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + a.port() + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"a\"}}\n"
                            + "{\"host\": \"127.0.0.1\", \"port\": " + b.port() + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"b\"}}\n");
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
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start();
                 HttpClient gw = HttpClient.newBuilder()
                         .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort()))).build();
                 HttpClient api = HttpClient.newHttpClient()) {
                HttpRequest viaB = HttpRequest.newBuilder(origin.uri("/echo")).header("X-Route", "b")
                        .timeout(Duration.ofSeconds(10)).build();
                assertEquals("all-a", gw.send(viaB, HttpResponse.BodyHandlers.ofString()).headers()
                        .firstValue("X-ProxyPool-Routing").orElse(""));
                long versionBefore = server.pool().engine().snapshot().version();

                HttpResponse<String> created = api.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/routings"))
                        .header("Authorization", ADMIN).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"to-b\", \"position\": 0,"
                                + " \"match\": {\"headers\": {\"X-Route\": \"b\"}}, \"filter\": {\"labels\": {\"kind\": \"b\"}}}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());

                HttpResponse<String> after = gw.send(viaB, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, after.statusCode());
                assertEquals("to-b", after.headers().firstValue("X-ProxyPool-Routing").orElse(""), "live without restart");
                assertTrue(server.pool().engine().snapshot().version() > versionBefore, "a new snapshot version");

                HttpResponse<String> audit = api.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/audit"))
                        .header("Authorization", ADMIN).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, audit.statusCode());
                assertTrue(audit.body().contains("to-b"), audit.body());

                HttpResponse<String> noToken = api.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/routings")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(401, noToken.statusCode());
            }
        }
    }
}
