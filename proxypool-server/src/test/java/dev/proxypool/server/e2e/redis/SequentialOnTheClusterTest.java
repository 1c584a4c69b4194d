package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.coordination.SharedSequentialStates;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Design Q6 in a cluster (control plane and worker on real Redis, no database): the control plane
 * keeps each sequential routing's position in Redis. A routing whose first provider is dry advances
 * on the control plane; the worker, whose board is never fed fetch outcomes, follows it and serves
 * from the second upstream; a restarted control plane starts where the routing stood, with its
 * reason. (Workers used to stay on the first upstream and answer 503; a restart went back to it.)
 */
class SequentialOnTheClusterTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void theControlPlaneKeepsThePositionInRedisAndTheWorkerServesFromIt() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy proxy = FakeHttpProxy.start();
                HttpClient api = HttpClient.newHttpClient();
                SharedSequentialStates redis = SharedSequentialStates.open(CoordinationRedis.of(
                        RedisStoreConfig.fromUri("redis://127.0.0.1:6379").withKeyPrefix(prefix)))) {
            Files.writeString(dir.resolve("dry.jsonl"), "");
            Files.writeString(
                    dir.resolve("stocked.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    providers:
                      - { name: dry, type: jsonl_inventory, path: dry.jsonl }
                      - { name: stocked, type: jsonl_inventory, path: stocked.jsonl }
                    upstreams:
                      - { name: dry, provider: dry, validate: false, fetch: { interval: 1s } }
                      - { name: stocked, provider: stocked, validate: false, fetch: { interval: 1s } }
                    routings:
                      - { name: seq, strategy: sequential, upstreams: [dry, stocked], emptyThreshold: 1 }
                    """.formatted(prefix));

            SequentialState stored;
            try (ProxyPoolServer control = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .role(ServeRole.CONTROL)
                    .configDir(dir)
                    .start()) {
                Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the control plane's routing to advance past the dry upstream",
                                () -> EmbeddedProxyPool.engineOf(control.pool())
                                        .sequential()
                                        .current("seq")
                                        .index(),
                                i -> i == 1);
                stored = Await.atMost(Duration.ofSeconds(10))
                        .until(
                                "the position in Redis",
                                () -> redis.load().stream()
                                        .filter(s -> s.routing().equals("seq"))
                                        .findFirst()
                                        .orElse(null),
                                s -> s != null && s.index() == 1);
                assertEquals("stocked", stored.upstream());
                assertEquals(SwitchReason.EMPTY_THRESHOLD, stored.reason());

                try (ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                                .role(ServeRole.WORKER)
                                .configDir(dir)
                                .start();
                        HttpClient gw = HttpClient.newBuilder()
                                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", worker.gatewayPort())))
                                .build()) {
                    Await.atMost(Duration.ofSeconds(20))
                            .until(
                                    "the worker to follow the control plane's position",
                                    () -> EmbeddedProxyPool.engineOf(worker.pool())
                                            .sequential()
                                            .current("seq")
                                            .index(),
                                    i -> i == 1);
                    HttpResponse<String> served = Await.atMost(Duration.ofSeconds(20))
                            .until(
                                    "the worker's gateway to serve from the second upstream",
                                    () -> gw.send(
                                            HttpRequest.newBuilder(origin.uri("/echo"))
                                                    .timeout(Duration.ofSeconds(10))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString()),
                                    r -> r.statusCode() == 200);
                    assertEquals(200, served.statusCode());
                    assertTrue(proxy.requests() > 0, "through the second upstream's proxy");
                }

                // a standby control plane follows the moves of the one collecting (here an admin reset)
                try (ProxyPoolServer standby = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .role(ServeRole.CONTROL)
                        .configDir(dir)
                        .start()) {
                    HttpResponse<String> reset = api.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + control.apiPort()
                                            + "/v1/admin/routings/seq/sequential"))
                                    .header("Authorization", ADMIN)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"action\": \"reset\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, reset.statusCode(), reset.body());
                    long resetVersion = stored.version() + 1;
                    Await.atMost(Duration.ofSeconds(20))
                            .until(
                                    "the standby's board to follow the active one's reset",
                                    () -> EmbeddedProxyPool.engineOf(standby.pool())
                                            .sequential()
                                            .current("seq")
                                            .version(),
                                    v -> v >= resetVersion);
                    stored = Await.atMost(Duration.ofSeconds(20))
                            .until(
                                    "the routing to advance again past the dry upstream",
                                    () -> redis.load().stream()
                                            .filter(s -> s.routing().equals("seq"))
                                            .findFirst()
                                            .orElseThrow(),
                                    s -> s.version() > resetVersion && s.index() == 1);
                }
            }

            try (ProxyPoolServer restarted = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .role(ServeRole.CONTROL)
                    .configDir(dir)
                    .start()) {
                HttpResponse<String> r = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restarted.apiPort()
                                        + "/v1/admin/routings/seq/sequential"))
                                .header("Authorization", ADMIN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                String body = r.body().replace(" ", "");
                assertEquals(200, r.statusCode(), body);
                assertTrue(body.contains("\"index\":1"), "the restarted control plane is on the second: " + body);
                assertEquals("stocked", field(body, "upstream"), body);
                assertEquals("empty_threshold", field(body, "reason"), body);
                assertEquals(
                        stored.changedAt().truncatedTo(ChronoUnit.MILLIS),
                        Instant.parse(field(body, "changedAt")).truncatedTo(ChronoUnit.MILLIS),
                        "the time it moved");
            }
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }
}
