package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.ProxyPoolServer;
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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Redis that comes back empty (restarted without persistence, {@code FLUSHALL}) must not empty the
 * gateway until the next fetch (docs/reliability.md): the collection writer notices the lost
 * content mark within its 1 s round and republishes its last pool at once. Simulated on the real
 * Redis by deleting every key of the server's own prefix; the fetch interval is 10 minutes, so only
 * the republish can bring the proxies back in time.
 */
class RedisContentLossTest {

    @TempDir
    Path dir;

    @Test
    void aStoreThatLostItsContentIsRepublishedWithinSecondsNotAtTheNextFetch() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy p1 = FakeHttpProxy.start();
                FakeHttpProxy p2 = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + p1.port() + ", \"protocol\": \"http\"}\n"
                            + "{\"host\": \"127.0.0.1\", \"port\": " + p2.port() + ", \"protocol\": \"http\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                    providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false, fetch: { interval: 10m } }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """.formatted(prefix));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build()) {
                PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
                assertEquals(2, engine.store().available("lab"));
                assertEquals(200, get(gw, origin).statusCode());

                RedisE2e.deleteKeys(6379, prefix);
                // any rebuild now (an extraction, an admin change, a takeover) reads the empty store; not asserted
                // empty: the writer's check may already have republished
                engine.refresh();

                Await.atMost(Duration.ofSeconds(3))
                        .until(
                                "the last pool is republished",
                                () -> engine.store().available("lab") == 2
                                        && engine.snapshot().size() == 2);
                for (int i = 0; i < 4; i++) {
                    HttpResponse<String> r = get(gw, origin);
                    assertEquals(200, r.statusCode(), "the gateway serves again: " + r.body());
                }
            } finally {
                RedisE2e.deleteKeys(6379, prefix);
            }
        }
    }

    private static HttpResponse<String> get(HttpClient gw, FakeOrigin origin) throws Exception {
        return gw.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
