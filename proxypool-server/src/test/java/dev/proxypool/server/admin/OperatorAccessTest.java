package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.MemoryConfigStore;
import dev.proxypool.server.persistence.StoredOperator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a viewer may do (read) and may not (every write: 403, nothing changed), and operators without admin.token. */
class OperatorAccessTest {

    static final String VIEWER = "viewer-token-0123456789abcdef";

    static StoredOperator viewer() {
        return new StoredOperator("vera", "viewer", ClientDocs.tokenHash(VIEWER), AdminFixture.START, "admin");
    }

    @Test
    void aViewerReadsEverythingAndGets403OnEveryWrite() {
        try (AdminFixture f = AdminFixture.options()
                .proxies(AdminFixture.proxies(4, "u"))
                .store(clock -> {
                    MemoryConfigStore s = new MemoryConfigStore(ConfigState.EMPTY, clock);
                    s.createOperator(
                            viewer(), AuditRecord.of("admin", "operator.create", "operator", "vera", null, null));
                    return s;
                })
                .start()) {
            assertEquals(
                    201,
                    f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"}")
                            .status());
            long version = f.store.state().version();
            int auditRows = f.get("/audit?limit=1000").list("entries").size();
            for (String path : List.of(
                    "/providers",
                    "/providers/lab",
                    "/upstreams",
                    "/routings",
                    "/clients",
                    "/proxies",
                    "/proxies/p00001",
                    "/snapshot",
                    "/audit",
                    "/pipeline",
                    "/operators",
                    "/whoami")) {
                AdminFixture.Response r = f.send("GET", path, null, VIEWER);
                assertEquals(200, r.status(), path + ": " + r.body());
            }
            String[][] writes = {
                {"POST", "/providers", "{\"name\": \"x\", \"type\": \"jsonl_inventory\", \"path\": \"x.jsonl\"}"},
                {"PUT", "/providers/lab", "{\"type\": \"jsonl_inventory\", \"path\": \"y.jsonl\"}"},
                {"DELETE", "/providers/lab", null},
                {"POST", "/upstreams", "{\"name\": \"u\", \"provider\": \"lab\"}"},
                {"POST", "/routings", "{\"name\": \"r\"}"},
                {"POST", "/clients", "{\"name\": \"c\", \"token\": \"client-token-0123456789\"}"},
                {"POST", "/proxies/p00001/disable", null},
                {"POST", "/proxies/p00001/enable", null},
                {"POST", "/proxies/p00001/reveal", null},
                {"POST", "/upstreams/u/fetch", null},
                {"POST", "/routings/seq/sequential", "{\"action\": \"advance\"}"},
                {"POST", "/operators", "{\"name\": \"mallory\", \"role\": \"admin\"}"},
                {"DELETE", "/operators/vera", null},
            };
            for (String[] w : writes) {
                AdminFixture.Response r = f.send(w[0], w[1], w[2], VIEWER);
                assertEquals(403, r.status(), w[0] + " " + w[1] + ": " + r.body());
                assertEquals("forbidden", r.error());
                assertEquals(
                        "operator 'vera' has the viewer role (read-only): " + w[0] + " /v1/admin" + w[1]
                                + " needs the admin role",
                        r.message());
            }
            assertEquals(version, f.store.state().version(), "no configuration write");
            assertEquals(auditRows, f.get("/audit?limit=1000").list("entries").size(), "no audit row");
            assertEquals(
                    List.of("vera"),
                    f.store.operators().stream().map(StoredOperator::name).toList());
            assertEquals("available", f.get("/proxies/p00001").json().get("state"));

            // a viewer never sees a full address, even when it asks for one
            for (String path : List.of("/proxies?masked=false", "/proxies/p00001?masked=false")) {
                String body = f.send("GET", path, null, VIEWER).body();
                assertFalse(body.contains("\"10.0.0.1\""), body);
                assertTrue(body.contains("10.0.x.x"), body);
            }
            assertTrue(f.get("/proxies/p00001").body().contains("\"10.0.0.1\""), "an admin still does");
        }
    }

    @Test
    void operatorsAloneEnableTheAdminApiWithoutAdminToken() {
        try (AdminFixture f = AdminFixture.options()
                .token(Optional.empty())
                .store(clock -> {
                    MemoryConfigStore s = new MemoryConfigStore(ConfigState.EMPTY, clock);
                    s.createOperator(
                            new StoredOperator(
                                    "root", "admin", ClientDocs.tokenHash(VIEWER), AdminFixture.START, "admin"),
                            AuditRecord.of("admin", "operator.create", "operator", "root", null, null));
                    return s;
                })
                .start()) {
            assertEquals(401, f.get("/providers").status(), "no bootstrap token configured");
            assertEquals(
                    Map.of("name", "root", "role", "admin", "bootstrap", false),
                    f.send("GET", "/whoami", null, VIEWER).json());
            assertEquals(
                    List.of("root"),
                    f.send("GET", "/operators", null, VIEWER).list("operators").stream()
                            .map(o -> o.get("name"))
                            .toList(),
                    "no bootstrap identity without admin.token");
            assertEquals(404, f.send("GET", "/operators/admin", null, VIEWER).status());
        }
    }
}
