package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's {@code proxypool.snapshot.version} gauge and its readiness check report the same
 * version: the control plane's, which the worker serves (not the worker engine's own rebuild
 * counter). The control plane here publishes several versions before the worker starts, so the
 * two numbers differ unless both read the subscriber's feed. Real Redis under a random key prefix.
 */
class WorkerSnapshotMetricTest {

    private static final Pattern HEALTH_VERSION = Pattern.compile("\"version\"\\s*:\\s*(\\d+)");
    private static final Pattern METRIC_VERSION =
            Pattern.compile("(?m)^proxypool_snapshot_version(?:\\{[^}]*\\})?\\s+([0-9.Ee+]+)$");

    @TempDir
    Path dir;

    @Test
    void theWorkersSnapshotVersionMetricIsTheVersionItsHealthReports() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        RedisStoreConfig redis =
                RedisStoreConfig.fromUri("redis://127.0.0.1:6379").withKeyPrefix(prefix);
        Path cfg = RedisE2e.workerConfig(dir, prefix);
        var all = RedisE2e.proxies(6, Instant.now());
        try (ProxyPool source = ProxyPool.builder().background(false).build();
                ControlRole control = RedisE2e.control(redis, source)) {
            for (int i = 0; i < all.size(); i++) { // one published version per added proxy
                source.addProxies(all.subList(i, i + 1));
                control.publishIfChanged();
            }
            long published = control.publisher().version();
            assertTrue(published >= 6, "the control plane published several versions: " + published);
            try (ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .role(ServeRole.WORKER)
                            .configDir(dir)
                            .start();
                    HttpClient http = HttpClient.newHttpClient()) {
                String base = "http://127.0.0.1:" + worker.apiPort();
                String health = Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the worker's readiness to show version " + published,
                                () -> http.send(
                                                HttpRequest.newBuilder(URI.create(base + "/observe/health/ready"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString())
                                        .body(),
                                h -> h.contains("\"version\":" + published) || h.contains("\"version\": " + published));
                Matcher h = HEALTH_VERSION.matcher(health);
                assertTrue(h.find(), health);
                assertEquals(
                        published, Long.parseLong(h.group(1)), "the worker holds the published version: " + health);

                String metrics = http.send(
                                HttpRequest.newBuilder(URI.create(base + "/observe/metrics"))
                                        .header("Accept", "text/plain")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                Matcher m = METRIC_VERSION.matcher(metrics);
                assertTrue(
                        m.find(),
                        "the gauge is exported: "
                                + metrics.lines()
                                        .filter(l -> l.contains("snapshot"))
                                        .toList());
                assertEquals(
                        published,
                        (long) Double.parseDouble(m.group(1)),
                        "the gauge reads the same version as the readiness check (" + health + ")");
                assertTrue(
                        metrics.lines().noneMatch(l -> l.startsWith("proxypool_pipeline_writer")),
                        "a worker collects nothing: no pipeline meters");
                assertTrue(
                        EmbeddedProxyPool.engineOf(worker.pool()).snapshot().version() != published,
                        "the worker engine's own counter differs, so the test tells the two sources apart");
            }
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }
}
