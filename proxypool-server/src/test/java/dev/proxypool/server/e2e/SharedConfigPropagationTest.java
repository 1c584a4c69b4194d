package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.testkit.Await;
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
 * Two server processes sharing one PostgreSQL configuration: a routing added through one's Admin
 * API reaches the other's gateway within its poll interval (propagation time printed), and a
 * restart keeps the admin change (the database wins over the YAML once seeded); the same for a
 * client, at the gateway.
 */
@Tag("slow")
class SharedConfigPropagationTest {

    @TempDir
    Path dir;

    private Path config(String schema) throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
                health: { active: { enabled: false } }
                clients: [{ name: alice, secret: alice-secret-0 }]
                routings: [{ name: first }]
                """.formatted(schema));
        return cfg;
    }

    /** The gateway's answer to a request with {@code user:secret} (407: not a client there; 403: a client, destination denied). */
    private static int gateway(ProxyPoolServer server, String user, String secret) throws Exception {
        try (HttpClient gw = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build()) {
            String basic = "Basic "
                    + Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
            return gw.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/"))
                                    .timeout(Duration.ofSeconds(15))
                                    .header("Proxy-Authorization", basic)
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        }
    }

    private static int awaitGateway(ProxyPoolServer server, String user, String secret, int wanted) throws Exception {
        try {
            return Await.atMost(Duration.ofSeconds(15))
                    .until(
                            "gateway status " + wanted + " for " + user,
                            () -> gateway(server, user, secret),
                            s -> s == wanted);
        } catch (AssertionError timedOut) {
            return gateway(server, user, secret); // the caller asserts the status and names the case
        }
    }

    @Test
    void aClientManagedOnOneProcessAuthenticatesOnTheOtherAndAfterARestart() throws Exception {
        try (PgSchema schema = PgSchema.create();
                HttpClient api = HttpClient.newHttpClient()) {
            Path cfg = config(schema.name());
            String adminUrl = "/v1/admin/clients";
            try (ProxyPoolServer a = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    ProxyPoolServer b = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start()) {
                assertEquals(403, gateway(b, "alice", "alice-secret-0"), "alice authenticates; 127.0.0.1 is denied");
                assertEquals(407, gateway(b, "bob", "bob-secret-0"));
                HttpResponse<String> created = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.apiPort() + adminUrl))
                                .header("Authorization", "Bearer admin-token-0123456789")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"name\": \"bob\", \"secret\": \"bob-secret-0\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                assertEquals(403, gateway(a, "bob", "bob-secret-0"), "in force on the process that took the change");
                assertEquals(403, awaitGateway(b, "bob", "bob-secret-0", 403), "in force on the other within its poll");

                HttpResponse<String> deleted = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.apiPort() + adminUrl + "/alice"))
                                .header("Authorization", "Bearer admin-token-0123456789")
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(204, deleted.statusCode(), deleted.body());
                assertEquals(
                        407,
                        awaitGateway(b, "alice", "alice-secret-0", 407),
                        "the config file's client, deleted by an admin");
            }
            try (ProxyPoolServer restarted = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                assertEquals(403, gateway(restarted, "bob", "bob-secret-0"), "the stored client after a restart");
                assertEquals(407, gateway(restarted, "alice", "alice-secret-0"), "the database wins over the YAML");
            }
        }
    }

    @Test
    void anAdminChangeOnOneProcessReachesTheOtherAndSurvivesARestart() throws Exception {
        try (PgSchema schema = PgSchema.create();
                HttpClient api = HttpClient.newHttpClient()) {
            Path cfg = config(schema.name());
            try (ProxyPoolServer a = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    ProxyPoolServer b = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start()) {
                long t0 = System.nanoTime();
                HttpResponse<String> created = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.apiPort() + "/v1/admin/routings"))
                                .header("Authorization", "Bearer admin-token-0123456789")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"added\", \"position\": 0}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                assertTrue(
                        EmbeddedProxyPool.engineOf(a.pool()).routing("added").isPresent(),
                        "live on the process that took the change");
                Await.atMost(Duration.ofSeconds(15))
                        .until(
                                "the other process to pick up routing 'added'",
                                () -> EmbeddedProxyPool.engineOf(b.pool())
                                        .routing("added")
                                        .isPresent());
                System.out.printf(
                        "config propagation to the second process: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                assertEquals(
                        "added",
                        EmbeddedProxyPool.engineOf(b.pool()).routings().get(0).name(),
                        "in the stored order");
            }
            try (ProxyPoolServer restarted = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                assertTrue(
                        EmbeddedProxyPool.engineOf(restarted.pool())
                                .routing("added")
                                .isPresent(),
                        "the database wins over the YAML");
            }
        }
    }
}
