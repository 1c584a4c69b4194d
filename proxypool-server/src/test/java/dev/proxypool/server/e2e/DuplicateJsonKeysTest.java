package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request body that gives one key twice is refused with 400 naming the key, on the real server
 * over HTTP: the parsers would otherwise keep the last value silently (so {@code "count": 1,
 * "count": 1000} would be read as 1000). Each case is checked against the same body without the
 * duplicate, which is accepted.
 */
@Tag("slow")
class DuplicateJsonKeysTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";
    private static final String ALICE = "Bearer alice-token-0123456789";

    @TempDir
    static Path dir;

    static ProxyPoolServer server;
    static HttpClient http;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        StringBuilder inventory = new StringBuilder();
        for (int i = 1; i <= 3; i++) {
            inventory
                    .append("{\"host\": \"10.9.0.")
                    .append(i)
                    .append("\", \"port\": 8000, \"protocol\": \"http\",")
                    .append(" \"labels\": {\"kind\": \"ex\"}}\n");
        }
        Files.writeString(dir.resolve("ex.jsonl"), inventory.toString());
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                providers: [{ name: lab, type: jsonl_inventory, path: ex.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                """);
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "the inventory loaded (3 proxies in the snapshot)",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        n -> n >= 3);
        assertEquals(3, EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(), "inventory loaded");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (http != null) {
            http.close();
        }
    }

    @Test
    void extractionsRefuseARepeatedKey() throws Exception {
        HttpResponse<String> twice = send(
                "POST",
                "/v1/extractions",
                ALICE,
                "{\"count\": 1, \"count\": 2, \"filter\": {\"labels\": {\"kind\": \"ex\"}}}");
        assertRefused(twice, "count");
        HttpResponse<String> nested = send(
                "POST",
                "/v1/extractions",
                ALICE,
                "{\"count\": 1, \"filter\": {\"labels\": {\"kind\": \"ex\", \"kind\": \"other\"}}}");
        assertRefused(nested, "filter.labels.kind");
        assertEquals(
                200,
                send("POST", "/v1/extractions", ALICE, "{\"count\": 1, \"filter\": {\"labels\": {\"kind\": \"ex\"}}}")
                        .statusCode(),
                "without the duplicate");
    }

    @Test
    void feedbackRefusesARepeatedKey() throws Exception {
        HttpResponse<String> twice = send(
                "POST",
                "/v1/feedback",
                ALICE,
                "{\"proxy\": \"p-unknown\", \"domain\": \"shop.example\", \"kind\": \"banned\", \"domain\": \"other.example\"}");
        assertRefused(twice, "domain");
        assertEquals(
                404,
                send(
                                "POST",
                                "/v1/feedback",
                                ALICE,
                                "{\"proxy\": \"p-unknown\", \"domain\": \"shop.example\", \"kind\": \"banned\"}")
                        .statusCode(),
                "without the duplicate: read, and the proxy is unknown");
    }

    @Test
    void theAdminApiRefusesARepeatedKeyAndChangesNothing() throws Exception {
        HttpResponse<String> twice = send(
                "POST",
                "/v1/admin/clients",
                ADMIN,
                "{\"name\": \"bob\", \"secret\": \"bob-canary-secret-1\", \"secret\": \"bob-canary-secret-2\"}");
        assertRefused(twice, "secret");
        assertFalse(twice.body().contains("bob-canary-secret"), "the values are not echoed: " + twice.body());
        assertEquals(404, send("GET", "/v1/admin/clients/bob", ADMIN, null).statusCode(), "nothing was created");
        assertEquals(
                201,
                send("POST", "/v1/admin/clients", ADMIN, "{\"name\": \"bob\", \"secret\": \"bob-canary-secret-1\"}")
                        .statusCode(),
                "without the duplicate");
    }

    private static void assertRefused(HttpResponse<String> r, String key) {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(
                r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                r.headers().toString());
        assertTrue(r.body().contains("\"error\"") && r.body().contains("invalid_request"), r.body());
        assertTrue(r.body().contains("duplicate key '" + key + "'"), r.body());
    }

    private static HttpResponse<String> send(String method, String path, String auth, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", auth);
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(
                b.method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
