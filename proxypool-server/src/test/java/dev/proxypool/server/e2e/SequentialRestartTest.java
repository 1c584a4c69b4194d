package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.testkit.Await;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Design Q6 through the real server on real PostgreSQL: a sequential routing whose first provider
 * is dry advances by itself (Empty threshold), and after a restart on the same schema it is still on
 * its second upstream with the reason and time of that advance, and the dry provider is not fetched
 * again. (It used to come back at index 0, reason {@code initial}: only admin actions were stored.)
 */
class SequentialRestartTest {

    @TempDir
    Path dir;

    private Path config(String schema, int origin) throws Exception {
        Files.writeString(dir.resolve("dry.jsonl"), "");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                providers:
                  - { name: dry, type: jsonl_inventory, path: dry.jsonl }
                  - { name: stocked, type: jsonl_inventory, path: stocked.jsonl }
                upstreams:
                  - { name: dry, provider: dry, validate: false, fetch: { interval: 1s } }
                  - { name: stocked, provider: stocked, validate: false, fetch: { interval: 1s } }
                routings:
                  - { name: seq, strategy: sequential, upstreams: [dry, stocked], emptyThreshold: 1 }
                """.formatted(schema, origin));
        return cfg;
    }

    @Test
    void anAdvanceOnAnEmptyThresholdSurvivesARestart() throws Exception {
        try (PgSchema schema = PgSchema.create();
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start();
                HttpClient api = HttpClient.newHttpClient()) {
            Files.writeString(
                    dir.resolve("stocked.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = config(schema.name(), origin.port());

            String advancedAt;
            try (ProxyPoolServer first = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                String moved = Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the dry upstream's Empty answer to advance the routing",
                                () -> sequential(api, first),
                                s -> s.contains("\"index\":1"));
                assertEquals("stocked", field(moved, "upstream"), moved);
                assertEquals("empty_threshold", field(moved, "reason"), moved);
                advancedAt = field(moved, "changedAt");
                assertEquals(200, through(first, origin).statusCode(), "the routing serves from its second upstream");
            }

            try (ProxyPoolServer second = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                String restored = sequential(api, second);
                assertTrue(restored.contains("\"index\":1"), "still on the second upstream: " + restored);
                assertEquals("stocked", field(restored, "upstream"), restored);
                assertEquals("empty_threshold", field(restored, "reason"), "with the reason it moved for");
                assertEquals(
                        millis(advancedAt),
                        millis(field(restored, "changedAt")),
                        "and the time it moved (the database keeps microseconds)");

                // two fetches of the current upstream later, the dry one has still not been asked again
                String before = fetchedAt(api, second, "stocked");
                Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "a second fetch round of the current upstream",
                                () -> fetchedAt(api, second, "stocked"),
                                at -> at != null && !at.equals(before));
                assertNull(fetchedAt(api, second, "dry"), "the dry provider is not fetched after the restart");
                assertEquals(200, through(second, origin).statusCode(), "and the gateway serves from the second");
            }
        }
    }

    private static HttpResponse<String> through(ProxyPoolServer server, FakeOrigin origin) throws Exception {
        try (HttpClient gw = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build()) {
            return Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "a gateway request served",
                            () -> gw.send(
                                    HttpRequest.newBuilder(origin.uri("/echo"))
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString()),
                            r -> r.statusCode() == 200);
        }
    }

    static String sequential(HttpClient api, ProxyPoolServer server) throws Exception {
        HttpResponse<String> r =
                LiveCollectionTest.admin(api, server, "GET", "/v1/admin/routings/seq/sequential", null);
        assertEquals(200, r.statusCode(), r.body());
        return r.body().replace(" ", "");
    }

    /** {@code lastFetchAt} of {@code upstream} in {@code GET /v1/admin/pipeline}, or null when never fetched. */
    static String fetchedAt(HttpClient api, ProxyPoolServer server, String upstream) throws Exception {
        String body = LiveCollectionTest.admin(api, server, "GET", "/v1/admin/pipeline", null)
                .body()
                .replace(" ", "");
        for (String part : List.of(body.split("\\{\"upstream\":"))) {
            if (part.startsWith("\"" + upstream + "\"")) {
                Matcher m =
                        Pattern.compile("\"lastFetchAt\":(null|\"([^\"]*)\")").matcher(part);
                return m.find() ? m.group(2) : null;
            }
        }
        return null;
    }

    static Instant millis(String instant) {
        return Instant.parse(instant).truncatedTo(ChronoUnit.MILLIS);
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }
}
