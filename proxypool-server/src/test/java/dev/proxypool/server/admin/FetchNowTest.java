package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.sdk.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /v1/admin/upstreams/{name}/fetch}: 202 for a fetched upstream, 404 otherwise; audited. */
class FetchNowTest {

    @TempDir
    Path dir;

    @Test
    void fetchNowIsAcceptedForAKnownUpstream() throws Exception {
        Files.writeString(dir.resolve("lab.jsonl"), "{\"host\": \"127.0.0.1\", \"port\": 9, \"protocol\": \"http\"}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                """);
        try (AdminFixture f =
                AdminFixture.options().config(ConfigLoader.load(cfg, Map.of())).start()) {
            AdminFixture.Response r = f.post("/upstreams/lab/fetch", null);
            assertEquals(202, r.status(), r.body());
            assertEquals(Map.of("upstream", "lab", "status", "requested"), r.json());
            Map<String, Object> audit = f.get("/audit").list("entries").getFirst();
            assertEquals("upstream.fetch", audit.get("action"));
            assertEquals("lab", audit.get("entityName"));

            AdminFixture.Response unknown = f.post("/upstreams/nope/fetch", null);
            assertEquals(404, unknown.status());
            assertEquals("no upstream named 'nope' is fetched by this process", unknown.message());
            assertEquals(1, f.get("/audit").list("entries").size());
        }
    }

    @Test
    void aPoolWithoutPipelineFetchesNothing() {
        try (AdminFixture f = AdminFixture.options().start()) {
            assertEquals(404, f.post("/upstreams/lab/fetch", null).status());
        }
    }
}
