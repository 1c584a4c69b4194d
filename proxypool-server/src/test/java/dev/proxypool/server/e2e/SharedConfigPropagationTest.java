package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.PgSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes sharing one PostgreSQL configuration: a routing added through one's Admin
 * API reaches the other's gateway within its poll interval (propagation time printed), and a
 * restart keeps the admin change (the database wins over the YAML once seeded).
 */
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
                routings: [{ name: first }]
                """.formatted(schema));
        return cfg;
    }

    @Test
    void anAdminChangeOnOneProcessReachesTheOtherAndSurvivesARestart() throws Exception {
        try (PgSchema schema = PgSchema.create(); HttpClient api = HttpClient.newHttpClient()) {
            Path cfg = config(schema.name());
            try (ProxyPoolServer a = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start();
                 ProxyPoolServer b = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start()) {
                long t0 = System.nanoTime();
                HttpResponse<String> created = api.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + a.apiPort() + "/v1/admin/routings"))
                        .header("Authorization", "Bearer admin-token-0123456789").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"added\", \"position\": 0}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                assertTrue(a.pool().engine().routing("added").isPresent(), "live on the process that took the change");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                while (b.pool().engine().routing("added").isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(b.pool().engine().routing("added").isPresent(), "the other process picked it up");
                System.out.printf("config propagation to the second process: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                assertEquals("added", b.pool().engine().routings().get(0).name(), "in the stored order");
            }
            try (ProxyPoolServer restarted = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start()) {
                assertTrue(restarted.pool().engine().routing("added").isPresent(), "the database wins over the YAML");
            }
        }
    }
}
