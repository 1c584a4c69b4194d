package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.coordination.WorkerRole;
import dev.proxypool.sdk.coordination.WorkerShare;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #22: a control plane shows which snapshot each worker serves ({@code GET /v1/admin/snapshot}
 * {@code workers}) and flags one that stopped applying. A real control plane
 * ({@code proxypool serve --role control} in-process) and two real workers ({@link WorkerRole},
 * the worker role's own class) on the local Redis under a random prefix; one worker's snapshot feed
 * is closed while its heartbeat goes on (a worker whose sync died), then the control plane publishes.
 */
class WorkerSnapshotFlagsTest {

    private static final String ADMIN = "admin-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aWorkerThatStopsApplyingIsShownBehindAndStaleWhileAHealthyOneIsNot() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                health: { active: { enabled: false } }
                admin: { token: %s }
                cluster: { workerTtl: 3s, validity: 2m, renewAfter: 30s }
                """.formatted(prefix, ADMIN));
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        RedisStoreConfig redis =
                RedisStoreConfig.fromUri("redis://127.0.0.1:6379").withKeyPrefix(prefix);
        try (ProxyPoolServer control = ProxyPoolServer.builder(config)
                        .role(ServeRole.CONTROL)
                        .configDir(dir)
                        .start();
                ProxyPool healthyPool = ProxyPool.builder().background(false).build();
                ProxyPool stuckPool = ProxyPool.builder().background(false).build();
                WorkerRole healthy = worker(redis, config, healthyPool, "w-healthy");
                WorkerRole stuck = worker(redis, config, stuckPool, "w-stuck");
                HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + control.apiPort();
            control.pool().addProxies(RedisE2e.proxies(2, Instant.now()));
            JsonNode caughtUp = Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "both workers serve the published version",
                            () -> snapshot(http, base),
                            s -> s.path("publishedVersion").asLong() > 0
                                    && s.path("workers").size() == 2
                                    && worker(s, "w-healthy").path("behind").asLong(-1) == 0
                                    && worker(s, "w-stuck").path("behind").asLong(-1) == 0);
            long before = caughtUp.path("publishedVersion").asLong();
            JsonNode stuckBefore = worker(caughtUp, "w-stuck");
            assertEquals(before, stuckBefore.path("snapshotVersion").asLong());
            assertFalse(stuckBefore.path("stale").asBoolean(), caughtUp.toString());
            assertTrue(stuckBefore.path("appliedAt").isTextual(), caughtUp.toString());
            assertTrue(stuckBefore.path("ageSeconds").asDouble(-1) >= 0, caughtUp.toString());
            assertEquals(60.0, caughtUp.path("workerStaleAfterSeconds").asDouble(), "half of cluster.validity");
            assertEquals("test:w-stuck", stuckBefore.path("description").asText());

            stuck.subscriber().close(); // the feed stops; the heartbeat goes on
            // what it serves from now on: a publication already on its way when the feed stopped may have
            // been applied after the caught-up answer above
            long served = stuck.subscriber().current().orElseThrow().version();
            assertTrue(served >= before, served + " < " + before);
            control.pool().addProxies(RedisE2e.proxies(4, Instant.now()).subList(2, 4));
            JsonNode flagged = Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "the stuck worker is behind while the healthy one keeps up",
                            () -> snapshot(http, base),
                            s -> s.path("publishedVersion").asLong() > served
                                    && worker(s, "w-stuck")
                                                    .path("snapshotVersion")
                                                    .asLong()
                                            == served
                                    && worker(s, "w-stuck").path("behind").asLong() >= 1
                                    && worker(s, "w-healthy").path("behind").asLong(-1) == 0);
            JsonNode s = worker(flagged, "w-stuck");
            assertEquals(served, s.path("snapshotVersion").asLong(), "it still serves the old version");
            assertEquals(
                    flagged.path("publishedVersion").asLong() - served,
                    s.path("behind").asLong(),
                    "behind = published - served");
            assertTrue(s.path("stale").asBoolean(), flagged.toString());
            JsonNode h = worker(flagged, "w-healthy");
            assertFalse(h.path("stale").asBoolean(), flagged.toString());
            assertEquals(
                    flagged.path("publishedVersion").asLong(),
                    h.path("snapshotVersion").asLong());
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    private static WorkerRole worker(RedisStoreConfig redis, ProxyPoolConfig config, ProxyPool pool, String id) {
        return WorkerRole.start(
                CoordinationRedis.of(redis),
                config.cluster(),
                EmbeddedProxyPool.engineOf(pool),
                new WorkerShare.Fixed(),
                id,
                "test:" + id,
                EmbeddedProxyPool.engineOf(pool).wallClock(),
                EmbeddedProxyPool.engineOf(pool).ticker());
    }

    private static JsonNode snapshot(HttpClient http, String base) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/admin/snapshot"))
                .header("Authorization", "Bearer " + ADMIN)
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        OpenApiContract.get().check(request, null, r); // the workers as META-INF/openapi.yaml describes them
        return JSON.readTree(r.body());
    }

    private static JsonNode worker(JsonNode snapshot, String id) {
        for (JsonNode w : snapshot.path("workers")) {
            if (w.path("id").asText().equals(id)) {
                return w;
            }
        }
        return JSON.missingNode();
    }
}
