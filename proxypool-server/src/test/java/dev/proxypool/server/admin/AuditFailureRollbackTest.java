package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.server.persistence.PostgresConfigStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Nothing half-written: a write whose audit insert fails (a constraint injected into the real
 * {@code audit_log}) leaves the entity rows, the routing positions and the version as they were.
 */
@Tag("slow")
class AuditFailureRollbackTest {

    private PgSchema schema;
    private AdminFixture f;

    @BeforeEach
    void start() {
        schema = PgSchema.create();
        f = AdminFixture.options()
                .store(clock -> PostgresConfigStore.open(schema.settings(), clock))
                .start();
        assertEquals(
                201,
                f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"x\"}")
                        .status());
        assertEquals(
                201,
                f.post("/upstreams", "{\"name\": \"lab\", \"provider\": \"lab\"}")
                        .status());
        assertEquals(
                201,
                f.post("/routings", "{\"name\": \"first\", \"upstreams\": [\"lab\"]}")
                        .status());
        assertEquals(
                201,
                f.post("/routings", "{\"name\": \"poison\", \"upstreams\": [\"lab\"]}")
                        .status());
        // from now on, every audit row about an entity named 'poison' fails to insert
        schema.execute(
                "ALTER TABLE audit_log ADD CONSTRAINT injected_failure CHECK (entity_name <> 'poison') NOT VALID");
    }

    @AfterEach
    void stop() {
        f.close();
        schema.close();
    }

    private String snapshot() {
        return schema.scalar(
                "SELECT (SELECT version FROM config_version) || '|' || "
                        + "(SELECT string_agg(name || '@' || position || '=' || doc::text, ';' ORDER BY name) FROM routings) || '|' || "
                        + "(SELECT string_agg(name, ';' ORDER BY name) FROM providers) || '|' || (SELECT count(*) FROM audit_log)");
    }

    @Test
    void aFailedAuditInsertRollsBackTheCreate() {
        String before = snapshot();
        AdminFixture.Response r =
                f.post("/providers", "{\"name\": \"poison\", \"type\": \"jsonl_inventory\", \"path\": \"y\"}");
        assertEquals(500, r.status(), r.body());
        assertEquals("internal_error", r.error());
        assertEquals(before, snapshot());
        assertEquals(404, f.get("/providers/poison").status());
        assertEquals("0", schema.scalar("SELECT count(*) FROM providers WHERE name = 'poison'"));
    }

    @Test
    void aFailedAuditInsertRollsBackAnUpdateThatMovesPositions() {
        String before = snapshot();
        AdminFixture.Response r = f.put("/routings/poison", "{\"upstreams\": [], \"position\": 0}");
        assertEquals(500, r.status(), r.body());
        assertEquals(before, snapshot(), "neither the document nor any position changed");
        assertEquals(
                java.util.List.of("first", "poison"),
                f.store.state().names(dev.proxypool.server.persistence.EntityType.ROUTING));
    }

    @Test
    void aFailedAuditInsertRollsBackTheDelete() {
        String before = snapshot();
        assertEquals(500, f.delete("/routings/poison").status());
        assertEquals(before, snapshot());
        assertEquals(200, f.get("/routings/poison").status());
        assertEquals(
                0,
                f.changes.stream()
                        .filter(c -> c.name().equals("poison") && c.version() > 4)
                        .count(),
                "the hook hears only of committed writes");
    }
}
