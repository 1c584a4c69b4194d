package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TcpRelay;
import dev.proxypool.testkit.TestPorts;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Design H10b in a control/worker cluster on real Redis: a node registered on the control plane
 * reaches the workers only once a check through it passed. Workers build every proxy they learn
 * from the snapshot as healthy, so before this the worker's gateway sent the next request to a node
 * registered on a closed port and answered 502 {@code upstream_failed}. Now the worker answers 503
 * (no candidate) while only that node exists, a working node serves from the worker after its
 * check, and a node that was down when it registered reaches the worker once a later check passes.
 */
@Tag("slow")
class NodeFirstCheckOnTheClusterTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void aNodeReachesTheWorkersOnlyAfterACheckThroughItPassed() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        int closed = TestPorts.closedPort();
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: admin-token-0123456789 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                health: { active: { enabled: false }, cooldown: { initial: 1s, max: 2s } }
                security: { allowDestinations: ["127.0.0.0/8"] }
                """.formatted(prefix));
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy working = FakeHttpProxy.start();
                FakeHttpProxy late = FakeHttpProxy.start();
                TcpRelay lateDoor = new TcpRelay(late.port());
                ProxyPoolServer control = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .role(ServeRole.CONTROL)
                        .configDir(dir)
                        .start();
                ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .role(ServeRole.WORKER)
                        .configDir(dir)
                        .start();
                HttpClient api = HttpClient.newHttpClient();
                HttpClient gw = HttpClient.newBuilder()
                        .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", worker.gatewayPort())))
                        .build()) {
            lateDoor.cut(); // down when it registers: connections are accepted and closed at once
            String base = "http://127.0.0.1:" + control.apiPort() + "/v1/nodes";
            String token = field(send(api, "POST", base + "/tokens", ADMIN, "{\"name\": \"rack-1\"}", 201), "token");

            String dead = field(send(api, "POST", base, null, advert(token, closed), 201), "nodeId");
            Await.atMost(Duration.ofSeconds(15))
                    .until(
                            "the control plane's first check of the node on a closed port fails",
                            () -> send(api, "GET", base + "/" + dead + "/health", ADMIN, null, 200),
                            b -> b.contains("COOLING"));
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = get(gw, origin);
                assertEquals(503, r.statusCode(), "the worker has no candidate, never a 502: " + r.body());
            }

            String good = field(send(api, "POST", base, null, advert(token, working.port()), 201), "nodeId");
            Await.atMost(Duration.ofSeconds(20))
                    .until("the checked node reaches the worker", () -> onWorker(worker, working.port()), b -> b);
            String goodHealth = send(api, "GET", base + "/" + good + "/health", ADMIN, null, 200);
            assertTrue(goodHealth.contains("PROBE_ALLOWED"), "checked before it served: " + goodHealth);
            // the worker has everything published up to the working node: the unchecked one is not among it
            assertFalse(onWorker(worker, closed), "the node on the closed port never reached the worker");
            long before = working.forwardedRequests();
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = get(gw, origin);
                assertEquals(200, r.statusCode(), r.body());
            }
            assertEquals(before + 5, working.forwardedRequests(), "every request through the checked node");

            String lateNode = field(send(api, "POST", base, null, advert(token, lateDoor.port()), 201), "nodeId");
            Await.atMost(Duration.ofSeconds(15))
                    .until(
                            "the first check of the node that is down fails",
                            () -> send(api, "GET", base + "/" + lateNode + "/health", ADMIN, null, 200),
                            b -> b.contains("COOLING"));
            assertFalse(onWorker(worker, lateDoor.port()), "a node that failed its first check stays out");
            lateDoor.resume();
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "a later check passes after the cooldown and the node reaches the worker",
                            () -> onWorker(worker, lateDoor.port()),
                            b -> b);
            assertFalse(onWorker(worker, closed), "the node on the closed port is still held back");
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    private static boolean onWorker(ProxyPoolServer worker, int port) {
        return EmbeddedProxyPool.engineOf(worker.pool()).snapshot().proxies().stream()
                .map(Proxy::port)
                .anyMatch(p -> p == port);
    }

    private static HttpResponse<String> get(HttpClient gw, FakeOrigin origin) throws Exception {
        return gw.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String advert(String token, int port) {
        return "{\"token\": \"" + token + "\", \"host\": \"127.0.0.1\", \"port\": " + port
                + ", \"protocol\": \"http\"}";
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    private static String send(HttpClient api, String method, String uri, String auth, String body, int expected)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        HttpResponse<String> r = api.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, r.statusCode(), method + " " + uri + ": " + r.body());
        return r.body();
    }
}
