package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.persistence.Database;
import dev.proxypool.server.persistence.DatabaseSettings;
import dev.proxypool.server.persistence.PostgresConfigStore;
import dev.proxypool.testkit.TestPorts;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL configured but unreachable (a closed port, default settings: 2 s connection
 * timeout): admin writes answer {@code 503 database_unavailable} within ~3 s and change nothing;
 * live pool reads keep working.
 */
@Tag("slow")
class DatabaseUnavailableTest {

    private Database db;
    private AdminFixture f;

    @BeforeEach
    void start() {
        db = Database.open(
                DatabaseSettings.of("jdbc:postgresql://127.0.0.1:" + TestPorts.closedPort() + "/test", "postgres"));
        f = AdminFixture.options()
                .routings(RoutingRule.builder("shop")
                        .strategy(Strategy.SEQUENTIAL)
                        .upstreams("lab", "lab2")
                        .build())
                .proxies(AdminFixture.proxies(10, "lab"))
                .store(clock -> new PostgresConfigStore(db, clock))
                .start();
    }

    @AfterEach
    void stop() {
        f.close();
        db.close();
    }

    @Test
    void writesAnswer503Quickly() {
        for (int i = 0; i < 2; i++) {
            long t0 = System.nanoTime();
            AdminFixture.Response write = f.post("/providers", "{\"name\": \"p\", \"type\": \"jsonl_inventory\"}");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(503, write.status(), write.body());
            assertEquals("database_unavailable", write.error());
            assertTrue(ms < 3_000, "answered in " + ms + " ms");
            assertTrue(write.headers().firstValue("Retry-After").isPresent(), "a retryable 503");
        }
        // never reached since start: no configuration was read, none to answer from (DatabaseOutageReadsTest
        // covers a database lost after start)
        assertEquals(503, f.get("/providers").status(), "nothing read yet: no configuration in force to answer");
        assertEquals(List.of(), f.changes, "no change reached the hook");
    }

    @Test
    void livePoolReadsWorkAndUnauditableActionsAreUndone() {
        AdminFixture.Response proxies = f.get("/proxies");
        assertEquals(200, proxies.status(), proxies.body());
        assertEquals(10, proxies.list("proxies").size());
        assertEquals(200, f.get("/snapshot").status());
        assertEquals(200, f.get("/routings/shop/sequential").status());

        AdminFixture.Response disable = f.post("/proxies/p00003/disable", null);
        assertEquals(503, disable.status(), "an action that cannot be audited is not done");
        assertEquals(
                ProxyState.AVAILABLE,
                EmbeddedProxyPool.engineOf(f.pool)
                        .store()
                        .get("p00003")
                        .orElseThrow()
                        .state());
        assertEquals(
                HealthState.HEALTHY,
                EmbeddedProxyPool.engineOf(f.pool)
                        .runtime("p00003")
                        .orElseThrow()
                        .health()
                        .state());

        AdminFixture.Response advance = f.post("/routings/shop/sequential", "{\"action\": \"advance\"}");
        assertEquals(503, advance.status());
        assertEquals(
                0,
                EmbeddedProxyPool.engineOf(f.pool).sequential().current("shop").index(),
                "the board is put back");
        assertEquals(
                "lab",
                EmbeddedProxyPool.engineOf(f.pool).sequential().current("shop").upstream());
    }
}
