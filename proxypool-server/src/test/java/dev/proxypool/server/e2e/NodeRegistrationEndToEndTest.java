package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
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
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A self-hosted node registers with a pre-issued token, serves gateway traffic, and leaves at once when revoked. */
class NodeRegistrationEndToEndTest {

    @TempDir
    Path dir;

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    @Test
    void aRegisteredNodeServesAndARevokedOneLeavesAtOnce() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start(); FakeHttpProxy node = FakeHttpProxy.start()) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: admin-token-0123456789 }
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start();
                 HttpClient api = HttpClient.newHttpClient();
                 HttpClient gw = HttpClient.newBuilder()
                         .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort()))).build()) {
                String base = "http://127.0.0.1:" + server.apiPort() + "/v1/nodes";
                HttpResponse<String> issued = api.send(HttpRequest.newBuilder(URI.create(base + "/tokens"))
                        .header("Authorization", "Bearer admin-token-0123456789")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"rack-1\"}")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, issued.statusCode(), issued.body());
                String token = field(issued.body(), "token");

                HttpResponse<String> registered = api.send(HttpRequest.newBuilder(URI.create(base))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"token\": \"" + token + "\", \"host\": \"127.0.0.1\", \"port\": "
                                + node.port() + ", \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, registered.statusCode(), registered.body());

                HttpResponse<String> served = gw.send(HttpRequest.newBuilder(origin.uri("/echo")).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, served.statusCode());
                assertEquals("nodes", served.headers().firstValue("X-ProxyPool-Upstream").orElse(""));
                assertEquals(1, node.forwardedRequests());
                HttpResponse<String> metrics = api.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.apiPort() + "/observe/metrics"))
                        .header("Accept", "text/plain").build(), HttpResponse.BodyHandlers.ofString());
                assertTrue(metrics.body().lines().anyMatch(l -> l.startsWith("proxypool_nodes_live") && l.trim().endsWith(" 1.0")),
                        "node count gauge: " + metrics.body().lines().filter(l -> l.contains("nodes")).toList());

                HttpResponse<String> revoked = api.send(HttpRequest.newBuilder(URI.create(base + "/tokens/rack-1"))
                        .header("Authorization", "Bearer admin-token-0123456789").DELETE().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(204, revoked.statusCode());
                HttpResponse<String> after = gw.send(HttpRequest.newBuilder(origin.uri("/echo")).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, after.statusCode(), "the revoked node left the pool at once");
            }
        }
    }
}
