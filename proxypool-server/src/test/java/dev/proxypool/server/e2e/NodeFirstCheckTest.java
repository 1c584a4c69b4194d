package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthState;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newly registered node is checked before it serves (docs/design.md H10b): it starts as
 * {@code PROBE_ALLOWED} with the permit held by its first check; registered on a closed port it
 * never gets a client request (the gateway answers 503 no candidate, never 502), and a working
 * one serves once its check succeeded.
 */
class NodeFirstCheckTest {

    private static final String ADMIN = "Bearer admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void aNodeOnAClosedPortNeverGetsAClientRequestAndAWorkingOneServesAfterItsCheck() throws Exception {
        int closed = TestPorts.closedPort();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy working = FakeHttpProxy.start()) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient api = HttpClient.newHttpClient();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build()) {
                String base = "http://127.0.0.1:" + server.apiPort() + "/v1/nodes";
                String token =
                        field(send(api, "POST", base + "/tokens", ADMIN, "{\"name\": \"rack-1\"}", 201), "token");

                String dead = field(send(api, "POST", base, null, advert(token, closed), 201), "nodeId");
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> r = gw.send(
                            HttpRequest.newBuilder(origin.uri("/echo"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(503, r.statusCode(), "the unchecked node is no candidate, never a 502: " + r.body());
                }
                String deadHealth = Await.atMost(Duration.ofSeconds(15))
                        .until(
                                "the failed first check cools the node",
                                () -> send(api, "GET", base + "/" + dead + "/health", ADMIN, null, 200),
                                b -> b.contains("COOLING"));
                assertTrue(deadHealth.contains("PROBE_ALLOWED"), "it started as probe allowed: " + deadHealth);
                HttpResponse<String> still = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, still.statusCode(), still.body());

                String good = field(send(api, "POST", base, null, advert(token, working.port()), 201), "nodeId");
                Await.atMost(Duration.ofSeconds(15))
                        .until(
                                "the working node passes its first check",
                                () -> EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                                        .filter(p -> p.port() == working.port())
                                        .anyMatch(p -> EmbeddedProxyPool.engineOf(server.pool())
                                                        .runtime(p.id())
                                                        .orElseThrow()
                                                        .health()
                                                        .state()
                                                == HealthState.HEALTHY));
                String goodHealth = send(api, "GET", base + "/" + good + "/health", ADMIN, null, 200);
                assertTrue(goodHealth.contains("PROBE_ALLOWED"), "checked before it served: " + goodHealth);
                long before = working.forwardedRequests();
                HttpResponse<String> served = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, served.statusCode(), served.body());
                assertEquals(before + 1, working.forwardedRequests(), "served through the checked node");
            }
        }
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
