package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Faults;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gateway.ioTimeout} from the configuration file reaches the running gateway: with a proxy
 * that accepts and then never answers, a GET is retried on the other proxy after the configured
 * 1 s, not after the 60 s default.
 */
class GatewayTimeoutsConfigTest {

    @TempDir
    Path dir;

    @Test
    void theConfiguredIoTimeoutDecidesWhenAHangingProxyIsGivenUp() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy hanging =
                        FakeHttpProxy.builder().faults(Faults.none().hang()).start();
                FakeHttpProxy good = FakeHttpProxy.start()) {
            Files.writeString(dir.resolve("inventory.jsonl"), line(hanging.port()) + line(good.port()));
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    security: { allowDestinations: ["127.0.0.0/8"], allowAnonymous: true }
                    providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    routings: [{ name: all, strategy: roundRobin, retry: { maxAttempts: 2, budgetPercent: 100 } }]
                    gateway: { ioTimeout: 1s, idleTimeout: 30s, tunnelIdleTimeout: 2m }
                    """);
            try (ProxyPoolServer server =
                    ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start()) {
                HttpClient client = HttpClient.newBuilder()
                        .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
                // round robin over two proxies: within two requests one goes to the hanging proxy first
                for (int i = 0; i < 2; i++) {
                    long start = System.nanoTime();
                    HttpResponse<String> r = client.send(
                            HttpRequest.newBuilder(URI.create(origin.url("/echo")))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
                    assertEquals(200, r.statusCode(), r.body());
                    // 1 s to give up on the hanging proxy plus a retry; far below the 60 s default
                    assertTrue(ms < 20_000, "answered after " + ms + " ms");
                }
                assertTrue(hanging.acceptedConnections() >= 1, "the hanging proxy was tried");
            }
        }
    }

    private static String line(int port) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\", \"maxConcurrency\": 10}\n";
    }
}
