package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RedisClusterServer;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;

/**
 * {@code serve --role control} and {@code --role worker} on {@code store.type: redis-cluster} (a real
 * 3-master Redis Cluster, {@link RedisClusterServer}): the control plane takes the control-plane
 * lease and publishes the collected pool under {@code {<prefix>cluster}}, the worker registers and
 * serves gateway requests through the collected proxy, and a second control plane stands by.
 */
@Tag("slow")
class ControlAndWorkerOnRedisClusterTest {

    @TempDir
    Path dir;

    @Test
    void aControlPlaneAndAWorkerShareSnapshotsOnARedisCluster() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        String tag = "{" + prefix + "cluster}:";
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 0);
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                            + ", \"protocol\": \"http\", \"maxConcurrency\": 50}\n");
            String nodes = cluster.nodes().stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    store: { type: redis-cluster, nodes: [%s], keyPrefix: "%s" }
                    providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    cluster: { leaseTtl: 2s, pollInterval: 500ms }
                    """.formatted(nodes, prefix));
            try (RedisClusterClient redis = RedisClusterClient.builder()
                            .nodes(java.util.Set.of(new redis.clients.jedis.HostAndPort(
                                    "127.0.0.1", cluster.masterPorts().getFirst())))
                            .build();
                    ProxyPoolServer control = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .role(ServeRole.CONTROL)
                            .configDir(dir)
                            .start();
                    ProxyPoolServer standby = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .role(ServeRole.CONTROL)
                            .configDir(dir)
                            .start();
                    ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .role(ServeRole.WORKER)
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", worker.gatewayPort())))
                            .build()) {
                HttpResponse<String> served = Await.atMost(Duration.ofSeconds(30))
                        .until(
                                "the worker to serve through the collected proxy",
                                () -> gw.send(
                                        HttpRequest.newBuilder(origin.uri("/echo"))
                                                .timeout(Duration.ofSeconds(5))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString()),
                                r -> r.statusCode() == 200);
                assertEquals(200, served.statusCode());
                assertTrue(upstream.requests() > 0, "through the proxy the control plane collected");

                assertTrue(Long.parseLong(redis.hget(tag + "snapshot:full", "v")) >= 1, "a version published");
                assertEquals(1, redis.smembers(tag + "workers").size(), "the worker registered");
                String lease = redis.get(tag + "control:lease");
                assertTrue(lease != null && lease.startsWith(redis.hget(tag + "snapshot:full", "f") + " "), lease);
                assertEquals("active", role(control), "the first control plane publishes");
                assertEquals("standby", role(standby), "the second stands by");
                try (Jedis j = new Jedis("127.0.0.1", cluster.masterPorts().getFirst())) {
                    assertEquals(
                            j.clusterKeySlot(tag + "snapshot:full"),
                            j.clusterKeySlot(tag + "control:lease"),
                            "the lease is in the slot of the snapshot keys");
                }
            }
        }
    }

    private static String role(ProxyPoolServer s) throws Exception {
        try (HttpClient api = HttpClient.newHttpClient()) {
            String health = api.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.apiPort() + "/observe/health"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"role\"\\s*:\\s*\"(\\w+)\"")
                    .matcher(health);
            return m.find() ? m.group(1) : health;
        }
    }
}
