package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthState;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.PgSchema;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A self-hosted node registers with a pre-issued token, serves gateway traffic, and leaves at once when revoked. */
class NodeRegistrationEndToEndTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    @Test
    void aRegisteredNodeServesAndARevokedOneLeavesAtOnce() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy node = FakeHttpProxy.start()) {
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
                    HttpClient api = HttpClient.newHttpClient();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build()) {
                String base = "http://127.0.0.1:" + server.apiPort() + "/v1/nodes";
                HttpResponse<String> issued = api.send(
                        HttpRequest.newBuilder(URI.create(base + "/tokens"))
                                .header("Authorization", "Bearer admin-token-0123456789")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"rack-1\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, issued.statusCode(), issued.body());
                String token = field(issued.body(), "token");

                HttpResponse<String> registered = api.send(
                        HttpRequest.newBuilder(URI.create(base))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"token\": \"" + token
                                        + "\", \"host\": \"127.0.0.1\", \"port\": " + node.port()
                                        + ", \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, registered.statusCode(), registered.body());
                // a new node serves once its first check (a request through it to our echo) succeeded
                Await.atMost(Duration.ofSeconds(15))
                        .until(
                                "the node passes its first check",
                                () -> EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                                        .anyMatch(p -> EmbeddedProxyPool.engineOf(server.pool())
                                                        .runtime(p.id())
                                                        .orElseThrow()
                                                        .health()
                                                        .state()
                                                == HealthState.HEALTHY));
                long checks = node.forwardedRequests();

                HttpResponse<String> served = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, served.statusCode());
                assertEquals(
                        "nodes",
                        served.headers().firstValue("X-ProxyPool-Upstream").orElse(""));
                assertEquals(checks + 1, node.forwardedRequests());
                HttpResponse<String> metrics = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/observe/metrics"))
                                .header("Accept", "text/plain")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertTrue(
                        metrics.body()
                                .lines()
                                .anyMatch(l -> l.startsWith("proxypool_nodes_live")
                                        && l.trim().endsWith(" 1.0")),
                        "node count gauge: "
                                + metrics.body()
                                        .lines()
                                        .filter(l -> l.contains("nodes"))
                                        .toList());

                HttpResponse<String> revoked = api.send(
                        HttpRequest.newBuilder(URI.create(base + "/tokens/rack-1"))
                                .header("Authorization", "Bearer admin-token-0123456789")
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(204, revoked.statusCode());
                HttpResponse<String> after = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, after.statusCode(), "the revoked node left the pool at once");
            }
        }
    }

    /**
     * {@code nodes.*} timings reach the registration answer, and with {@code database.type: postgres}
     * a registered node and its token are served again by a restarted control plane.
     */
    @Test
    void nodeTimingsAreConfigurableAndRegistrationsSurviveARestartWithPostgres() throws Exception {
        try (PgSchema schema = PgSchema.create();
                FakeHttpProxy node = FakeHttpProxy.start()) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    nodes: { heartbeatInterval: 4s, livenessTimeout: 15s, credentialTtl: 1m }
                    """.formatted(schema.name()));
            String nodeId;
            String credential;
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient api = HttpClient.newHttpClient()) {
                String base = "http://127.0.0.1:" + server.apiPort() + "/v1/nodes";
                String token =
                        field(send(api, "POST", base + "/tokens", ADMIN, "{\"name\": \"rack-1\"}", 201), "token");
                String registered = send(
                        api,
                        "POST",
                        base,
                        null,
                        "{\"token\": \"" + token + "\", \"host\": \"127.0.0.1\", \"port\": " + node.port()
                                + ", \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}, \"weight\": 2}",
                        201);
                assertTrue(registered.contains("\"heartbeatIntervalSeconds\":4"), registered);
                assertTrue(registered.contains("\"livenessTimeoutSeconds\":15"), registered);
                nodeId = field(registered, "nodeId");
                credential = field(registered, "credential");
            }
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient api = HttpClient.newHttpClient()) {
                String base = "http://127.0.0.1:" + server.apiPort() + "/v1/nodes";
                send(api, "POST", base + "/" + nodeId + "/heartbeat", "Bearer " + credential, "{}", 200);
                String listed = send(api, "GET", base + "?label.country=US", ADMIN, null, 200);
                assertTrue(listed.contains(nodeId) && listed.contains("\"weight\":2"), listed);
                assertTrue(send(api, "GET", base + "/tokens", ADMIN, null, 200).contains("rack-1"));
            }
        }
    }

    private static String send(HttpClient api, String method, String uri, String auth, String body, int expected)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        HttpResponse<String> r = api.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, r.statusCode(), method + " " + uri + ": " + r.body());
        return r.body();
    }
}
