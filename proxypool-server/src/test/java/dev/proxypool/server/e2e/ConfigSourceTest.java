package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.security.LogCapture;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One source of configuration with PostgreSQL: the file seeds an empty database; afterwards the
 * database is in force for the admin API, the gateway's routings and the pipeline's upstreams
 * alike, one warning at start names every entity where the file differs, and
 * {@code --import-config} (the builder's {@code importConfig}) overwrites the database with the file.
 * Real PostgreSQL in a private schema.
 */
class ConfigSourceTest {

    @TempDir
    Path dir;

    private static final String FIRST = """
            server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
            admin: { token: admin-token-0123456789 }
            database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
            health: { active: { enabled: false } }
            security: { allowDestinations: ["127.0.0.0/8"] }
            providers: [{ name: lab, type: jsonl_inventory, path: a.jsonl }]
            upstreams: [{ name: lab, provider: lab, validate: false }]
            routings: [{ name: from-database }]
            """;

    /** The same file edited after the database was seeded: another path, one more upstream, another routing. */
    private static final String EDITED = """
            server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
            admin: { token: admin-token-0123456789 }
            database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
            health: { active: { enabled: false } }
            security: { allowDestinations: ["127.0.0.0/8"] }
            providers:
              - { name: lab, type: jsonl_inventory, path: b.jsonl }
              - { name: extra, type: jsonl_inventory, path: c.jsonl }
            upstreams:
              - { name: lab, provider: lab, validate: false }
              - { name: extra, provider: extra, validate: false }
            routings: [{ name: from-file }]
            """;

    @Test
    void theDatabaseIsInForceEverywhereTheDifferencesAreNamedOnceAndImportOverwrites() throws Exception {
        try (PgSchema schema = PgSchema.create();
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("a.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Files.writeString(
                    dir.resolve("b.jsonl"),
                    "{\"host\": \"127.0.0.2\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Files.writeString(
                    dir.resolve("c.jsonl"),
                    "{\"host\": \"127.0.0.3\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, FIRST.formatted(schema.name()));
            try (ProxyPoolServer seeding = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                assertEquals(
                        Set.of("lab:127.0.0.1"),
                        hosts(seeding),
                        "the first start seeds the empty database from the file");
            }

            Files.writeString(cfg, EDITED.formatted(schema.name()));
            try (LogCapture logs = LogCapture.install();
                    ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient api = HttpClient.newHttpClient()) {
                // the pipeline collects the database's upstreams (lab from a.jsonl; no 'extra')
                LiveCollectionTest.await(() -> !hosts(server).isEmpty(), "the stored upstream is collected");
                assertEquals(Set.of("lab:127.0.0.1"), hosts(server), "the pipeline follows the database, not the file");
                String pipeline = LiveCollectionTest.admin(api, server, "GET", "/v1/admin/pipeline", null)
                        .body();
                assertTrue(pipeline.contains("\"lab\"") && !pipeline.contains("\"extra\""), pipeline);
                // the admin API shows the same
                String provider = LiveCollectionTest.admin(api, server, "GET", "/v1/admin/providers/lab", null)
                        .body();
                assertTrue(provider.contains("a.jsonl"), provider);
                assertEquals(
                        404,
                        LiveCollectionTest.admin(api, server, "GET", "/v1/admin/upstreams/extra", null)
                                .statusCode());
                // and the gateway routes with the database's routings
                assertEquals("from-database", routingOf(server, origin));

                List<LogCapture.Line> warnings = logs.lines().stream()
                        .filter(l -> l.text().contains("the config file and the configuration database differ"))
                        .toList();
                assertEquals(1, warnings.size(), "one warning: " + warnings);
                String w = warnings.getFirst().text().lines().findFirst().orElse("");
                for (String item : List.of(
                        "providers[extra] only in the file",
                        "providers[lab] differs",
                        "upstreams[extra] only in the file",
                        "routings[from-file] only in the file",
                        "routings[from-database] only in the database")) {
                    assertTrue(w.contains(item), "names " + item + ": " + w);
                }
                assertTrue(!w.contains("upstreams[lab]"), "an entity that agrees is not named: " + w);
            }

            try (LogCapture logs = LogCapture.install();
                    ProxyPoolServer imported = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .importConfig(true)
                            .start();
                    HttpClient api = HttpClient.newHttpClient()) {
                LiveCollectionTest.await(() -> hosts(imported).size() == 2, "both upstreams of the file are collected");
                assertEquals(
                        Set.of("lab:127.0.0.2", "extra:127.0.0.3"),
                        hosts(imported),
                        "--import-config: the file is in force");
                assertTrue(LiveCollectionTest.admin(api, imported, "GET", "/v1/admin/providers/lab", null)
                        .body()
                        .contains("b.jsonl"));
                assertEquals(
                        200,
                        LiveCollectionTest.admin(api, imported, "GET", "/v1/admin/upstreams/extra", null)
                                .statusCode());
                assertEquals("from-file", routingOf(imported, origin));
                assertTrue(LiveCollectionTest.admin(api, imported, "GET", "/v1/admin/audit", null)
                        .body()
                        .contains("config.import"));
                assertTrue(
                        logs.lines().stream().noneMatch(l -> l.text().contains("configuration database differ")),
                        "nothing differs after the import");
            }
            // the import stays: a plain restart agrees with the file now
            try (LogCapture logs = LogCapture.install();
                    ProxyPoolServer again = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start()) {
                assertTrue(logs.lines().stream().noneMatch(l -> l.text().contains("configuration database differ")));
            }
        }
    }

    @Test
    void importWithoutADatabaseIsRefusedNamingTheKey() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                """);
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .configDir(dir)
                        .importConfig(true)
                        .start());
        assertTrue(
                e.getMessage().contains("database.type") && e.getMessage().contains("--import-config"), e.getMessage());
    }

    private static Set<String> hosts(ProxyPoolServer server) {
        Set<String> out = new TreeSet<>();
        EmbeddedProxyPool.engineOf(server.pool())
                .snapshot()
                .proxies()
                .forEach(p -> out.add(p.upstream() + ":" + p.key().host()));
        return out;
    }

    private static String routingOf(ProxyPoolServer server, FakeOrigin origin) throws Exception {
        try (HttpClient gw = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build()) {
            HttpResponse<String> r = gw.send(
                    HttpRequest.newBuilder(origin.uri("/echo"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.headers().firstValue("X-ProxyPool-Routing").orElse("(none: " + r.statusCode() + ")");
        }
    }
}
