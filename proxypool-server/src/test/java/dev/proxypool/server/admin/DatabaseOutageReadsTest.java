package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.persistence.DatabaseSettings;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.server.persistence.PostgresConfigStore;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.TcpRelay;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL lost while the server runs (a TCP relay in front of the real database, cut): the admin
 * configuration reads ({@code routings}, {@code clients}, {@code providers}, {@code upstreams}, lists and
 * single entities) answer 200 from the configuration in force, marked {@code X-ProxyPool-Config: in-force};
 * the audit log answers {@code 503 database_unavailable}; writes answer {@code 503 database_unavailable}
 * with {@code Retry-After} and change nothing; once the database is back, writes work again.
 */
@Tag("slow")
class DatabaseOutageReadsTest {

    private static final List<String> READS = List.of(
            "/providers",
            "/providers/lab",
            "/upstreams",
            "/upstreams/lab-us",
            "/routings",
            "/routings/shop",
            "/clients",
            "/clients/alice");

    private PgSchema schema;
    private TcpRelay relay;
    private AdminFixture f;

    @BeforeEach
    void start() {
        schema = PgSchema.create();
        relay = new TcpRelay(5432);
        DatabaseSettings settings = DatabaseSettings.of(
                        "jdbc:postgresql://127.0.0.1:" + relay.port() + "/test", PgSchema.USER)
                .withSchema(schema.name());
        f = AdminFixture.options()
                .store(clock -> PostgresConfigStore.open(settings, clock))
                .start();
    }

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        relay.close();
        schema.close();
    }

    @Test
    void configurationReadsAnswerFromTheStateInForceWhileWritesAndTheAuditAnswer503() {
        created(f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"}"));
        created(f.post("/upstreams", "{\"name\": \"lab-us\", \"provider\": \"lab\"}"));
        created(f.post("/routings", "{\"name\": \"shop\", \"upstreams\": [\"lab-us\"]}"));
        created(f.post("/clients", "{\"name\": \"alice\", \"token\": \"alice-token-0123456789\"}"));
        Map<String, String> before = new java.util.HashMap<>();
        for (String path : READS) {
            AdminFixture.Response r = f.get(path);
            assertEquals(200, r.status(), path + ": " + r.body());
            assertTrue(r.headers().firstValue("X-ProxyPool-Config").isEmpty(), path);
            before.put(path, r.body());
        }

        relay.cut(); // PostgreSQL unreachable from here on

        for (String path : READS) {
            AdminFixture.Response r = f.get(path);
            assertEquals(200, r.status(), path + " during the outage: " + r.body());
            assertEquals(before.get(path), r.body(), path + " answers the configuration in force");
            assertEquals(
                    "in-force", r.headers().firstValue("X-ProxyPool-Config").orElse(null), path);
        }
        AdminFixture.Response audit = f.get("/audit");
        assertEquals(503, audit.status(), audit.body());
        assertEquals("database_unavailable", audit.error());
        AdminFixture.Response write = f.post("/providers", "{\"name\": \"p2\", \"type\": \"jsonl_inventory\"}");
        assertEquals(503, write.status(), write.body());
        assertEquals("database_unavailable", write.error());
        assertTrue(write.headers().firstValue("Retry-After").isPresent(), "a retryable 503 says when to retry");
        AdminFixture.Response put =
                f.put("/routings/shop", "{\"upstreams\": [\"lab-us\"], \"strategy\": \"sequential\"}");
        assertEquals(503, put.status(), put.body());
        assertEquals(404, f.get("/providers/p2").status(), "the refused write changed nothing");

        relay.resume();

        // the connection pool finds the database again on its own (a refused write changes nothing, so retry)
        Await.atMost(Duration.ofSeconds(30))
                .until(
                        "a write once the database is back",
                        () -> f.post(
                                        "/providers",
                                        "{\"name\": \"p2\", \"type\": \"jsonl_inventory\", \"path\": \"p2.jsonl\"}")
                                .status(),
                        status -> status == 201);
        AdminFixture.Response after = f.get("/providers");
        assertEquals(200, after.status(), after.body());
        assertFalse(after.headers().firstValue("X-ProxyPool-Config").isPresent());
        assertEquals(2, after.list("providers").size());
    }

    private static void created(AdminFixture.Response r) {
        assertEquals(201, r.status(), r.body());
    }
}
