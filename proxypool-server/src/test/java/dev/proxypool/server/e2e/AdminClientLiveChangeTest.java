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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients created, changed and deleted through {@code /v1/admin/clients} take effect at the running
 * gateway (Basic auth, rate limit) and Distribution API (token, quota) without a restart — also
 * when no client had a token at start — while the config file's client keeps working.
 */
@Tag("slow")
class AdminClientLiveChangeTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void aClientManagedThroughTheAdminApiIsInForceAtOnce() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start()) {
            StringBuilder inventory = new StringBuilder("{\"host\": \"127.0.0.1\", \"port\": " + proxy.port()
                    + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"gw\"}}\n");
            for (int i = 1; i <= 5; i++) {
                inventory
                        .append("{\"host\": \"10.9.0.")
                        .append(i)
                        .append("\", \"port\": 8000, \"protocol\": \"http\",")
                        .append(" \"labels\": {\"kind\": \"ex\"}}\n");
            }
            Files.writeString(dir.resolve("gw.jsonl"), inventory.toString());
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    clients: [{ name: alice, secret: alice-secret }]
                    providers: [{ name: lab, type: jsonl_inventory, path: gw.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    routings: [{ name: gw, filter: { labels: { kind: gw } } }]
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build();
                    HttpClient api = HttpClient.newHttpClient()) {
                awaitPool(server, 6);
                URI through = origin.uri("/echo");
                assertEquals(200, get(gw, through, "alice", "alice-secret"), "the config file's client");
                assertEquals(407, get(gw, through, "bob", "bob-secret-1"), "bob does not exist yet");
                assertEquals(
                        404, feedback(api, server, null), "no client has a token: feedback is open (unknown proxy)");

                // created: authenticates at once, rate limit 1/s in force (burst 1)
                assertEquals(
                        201,
                        admin(
                                api,
                                server,
                                "POST",
                                "/v1/admin/clients",
                                "{\"name\": \"bob\", \"secret\": \"bob-secret-1\","
                                        + " \"token\": \"bob-token-0123456789\", \"rateLimit\": {\"rps\": 1}, \"quota\": {\"extractionsPerHour\": 2}}"));
                assertEquals(200, get(gw, through, "bob", "bob-secret-1"), "created through the admin API: in force");
                assertEquals(401, feedback(api, server, null), "a client has a token now: feedback needs one");
                assertEquals(
                        404, feedback(api, server, "bob-token-0123456789"), "bob's token is accepted (unknown proxy)");
                int limited = 0;
                for (int i = 0; i < 3; i++) {
                    int s = get(gw, through, "bob", "bob-secret-1");
                    assertTrue(s == 200 || s == 429, "status " + s);
                    limited += s == 429 ? 1 : 0;
                }
                assertTrue(limited >= 2, "bob's 1 request/s limit: " + limited + " of 3 back-to-back requests refused");
                assertEquals(200, get(gw, through, "alice", "alice-secret"), "alice has no limit");

                // quota 2 proxies per hour, through the Distribution API with the admin-given token
                // (no client had a token at start)
                assertEquals(200, extract(api, server, "bob-token-0123456789", 2));
                assertEquals(
                        429, extract(api, server, "bob-token-0123456789", 1), "bob's quota of 2 per hour is used up");

                // changed: the new secret works, the old one no longer; the limit lifted
                assertEquals(
                        200,
                        admin(
                                api,
                                server,
                                "PUT",
                                "/v1/admin/clients/bob",
                                "{\"name\": \"bob\", \"secret\": \"bob-secret-2\", \"rateLimit\": {\"rps\": 0}, \"quota\": {\"extractionsPerHour\": 3}}"));
                assertEquals(407, get(gw, through, "bob", "bob-secret-1"), "the old secret after the change");
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, get(gw, through, "bob", "bob-secret-2"), "the new secret, no limit any more");
                }
                assertEquals(
                        200,
                        extract(api, server, "bob-token-0123456789", 1),
                        "quota raised to 3: the hour's 2 still count");
                assertEquals(429, extract(api, server, "bob-token-0123456789", 1), "and the third was the last");

                // deleted: refused at once; alice unaffected
                assertEquals(204, admin(api, server, "DELETE", "/v1/admin/clients/bob", null));
                assertEquals(407, get(gw, through, "bob", "bob-secret-2"), "deleted through the admin API");
                assertEquals(401, extract(api, server, "bob-token-0123456789", 1), "the deleted client's token");
                assertEquals(200, get(gw, through, "alice", "alice-secret"), "alice after all the changes");
            }
        }
    }

    private static void awaitPool(ProxyPoolServer server, int proxies) throws InterruptedException {
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "the inventory loaded (" + proxies + " proxies in the snapshot)",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        n -> n >= proxies);
        assertEquals(
                proxies, EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(), "inventory loaded");
    }

    private static int get(HttpClient gw, URI uri, String user, String secret) throws Exception {
        String basic =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
        return gw.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(15))
                                .header("Proxy-Authorization", basic)
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static int admin(HttpClient api, ProxyPoolServer server, String method, String path, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", ADMIN);
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = api.send(
                b.method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode();
    }

    private static int feedback(HttpClient api, ProxyPoolServer server, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/feedback"))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"proxy\": \"p-unknown\", \"domain\": \"shop.example\", \"kind\": \"banned\"}"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return api.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int extract(HttpClient api, ProxyPoolServer server, String token, int count) throws Exception {
        HttpResponse<String> r = api.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/extractions"))
                        .timeout(Duration.ofSeconds(15))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"count\": " + count + ", \"filter\": {\"labels\": {\"kind\": \"ex\"}}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode();
    }
}
