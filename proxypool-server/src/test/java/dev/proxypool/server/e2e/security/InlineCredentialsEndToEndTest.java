package dev.proxypool.server.e2e.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeSocks5Proxy;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * Vendor lists with inline credentials: a {@code text_list} file naming
 * {@code http://user:pass@127.0.0.1:<port>} and a {@code text_list} feed (over HTTP) naming
 * {@code socks5://user:pass@127.0.0.1:<port>}. Both proxies demand exactly those credentials. The
 * proxies must serve gateway traffic, and the canary passwords must appear nowhere else: the
 * in-memory snapshot, Redis (snapshot frames decoded), the Admin API and every log record.
 */
class InlineCredentialsEndToEndTest {

    @TempDir
    Path dir;

    private final String httpPassword = Canaries.fresh();
    private final String socksPassword = Canaries.fresh();
    private final String prefix = "pptest:" + UUID.randomUUID() + ":";

    @Test
    void inlineCredentialsFromAFileAndAFeedServeTheGatewayAndNeverLeak() throws Exception {
        Canaries canaries = new Canaries()
                .watch("http proxy password", httpPassword)
                .watch("socks proxy password", socksPassword)
                .watchBasic("http proxy credentials", "vendor-http", httpPassword);
        HttpServer feed = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try (RedisClient redis =
                        RedisClient.builder().hostAndPort("127.0.0.1", 6379).build();
                LogCapture logs = LogCapture.install();
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy http = FakeHttpProxy.builder()
                        .basicAuth("vendor-http", httpPassword)
                        .start();
                FakeSocks5Proxy socks = FakeSocks5Proxy.builder()
                        .userPass("vendor-socks", socksPassword)
                        .start()) {
            byte[] list = ("# vendor feed\nsocks5://vendor-socks:" + socksPassword + "@127.0.0.1:" + socks.port()
                            + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            feed.createContext("/list", ex -> {
                ex.getResponseHeaders().add("Content-Type", "text/plain");
                ex.sendResponseHeaders(200, list.length);
                ex.getResponseBody().write(list);
                ex.close();
            });
            feed.start();
            Files.writeString(
                    dir.resolve("vendor.txt"),
                    "http://vendor-http:" + httpPassword + "@127.0.0.1:" + http.port() + "\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                    admin: { token: admin-token-for-test }
                    providers:
                      - { name: file-list, type: text_list, path: vendor.txt }
                      - { name: feed-list, type: text_list, url: "http://127.0.0.1:%d/list" }
                    upstreams: [{ name: file-list, provider: file-list, validate: false },
                                { name: feed-list, provider: feed-list, validate: false }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """.formatted(prefix, feed.getAddress().getPort()));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                awaitPool(server, 2);
                List<Proxy> live =
                        EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies();
                for (Proxy p : live) {
                    assertTrue(p.credentialRef().name().startsWith("inline-"), "derived ref: " + p.key());
                    canaries.scan(
                            "in-memory snapshot proxy " + p.id(),
                            p + " " + p.key() + " " + p.key().credentialRef());
                }
                canaries.scan(
                        "in-memory snapshot",
                        EmbeddedProxyPool.engineOf(server.pool()).snapshot().toString());

                try (HttpClient gateway = HttpClient.newBuilder()
                        .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                        .connectTimeout(Duration.ofSeconds(5))
                        .build()) {
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    int sent = 0;
                    while ((http.requestsWithCredentials() == 0 || socks.tunnels() == 0)
                            && sent < 40
                            && System.nanoTime() < deadline) {
                        HttpResponse<String> r = gateway.send(
                                HttpRequest.newBuilder(origin.uri("/echo?i=" + sent))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        assertEquals(200, r.statusCode(), "gateway request " + sent + ": " + r.body());
                        sent++;
                    }
                }
                assertTrue(http.requestsWithCredentials() >= 1, "the HTTP proxy got its inline credentials");
                assertTrue(socks.tunnels() >= 1, "the SOCKS5 proxy accepted its inline credentials");
                assertEquals(0, socks.authFailures(), "no SOCKS5 authentication failure");

                List<String> bodies = new ArrayList<>();
                for (String path : List.of(
                        "/v1/admin/proxies", "/v1/admin/snapshot", "/v1/admin/providers", "/v1/admin/upstreams")) {
                    HttpResponse<String> r = admin(server, path);
                    assertEquals(200, r.statusCode(), path);
                    canaries.scan("GET " + path, r.body());
                    bodies.add(r.body());
                }
                assertTrue(bodies.getFirst().contains("inline-"), "sanity: the admin API shows the derived ref");
                awaitRedisSnapshot(redis);
                for (RedisDump.Item item : RedisDump.dump(redis, prefix)) {
                    canaries.scan(item.where(), item.text());
                }
            } finally {
                feed.stop(0);
                RedisDump.delete(redis, prefix);
            }
            List<LogCapture.Line> lines = logs.lines();
            assertTrue(
                    lines.stream().anyMatch(l -> l.text().contains("proxypool serving")), "sanity: logs were captured");
            for (LogCapture.Line l : lines) {
                canaries.scan(l.where(), l.text());
            }
        }
        assertEquals(
                List.of(), canaries.hits(), "inline proxy passwords leaked (" + canaries.scanned() + " haystacks)");
    }

    private void awaitRedisSnapshot(RedisClient redis) throws InterruptedException {
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "sanity: the cluster snapshot published under the prefix (keys)",
                        () -> RedisDump.keys(redis, prefix),
                        keys -> keys.stream().anyMatch(k -> k.endsWith("snapshot:full")));
    }

    private static HttpResponse<String> admin(ProxyPoolServer server, String path) throws Exception {
        try (HttpClient c = HttpClient.newHttpClient()) {
            return c.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                            .timeout(Duration.ofSeconds(10))
                            .header("Authorization", "Bearer admin-token-for-test")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static void awaitPool(ProxyPoolServer server, int n) throws InterruptedException {
        Await.atMost(Duration.ofSeconds(15))
                .until(
                        "the " + n + " inline-credential proxies in the pool",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        size -> size >= n);
        assertEquals(
                n,
                EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(),
                "both inline-credential proxies are in the pool");
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
