package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.RedisClusterServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38.2 through a running server's Distribution API, on every store: with one proxy COOLING
 * (three failed requests on the gateway's health) and one HEALTHY, {@code count 2} hands out only
 * the healthy one ({@code partial}) or nothing ({@code allOrNothing}: 409, 1 available).
 */
@Tag("slow")
class ExtractionHealthEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void aCoolingProxyIsNotExtractedFromTheMemoryStore() throws Exception {
        try (MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS)) {
            coolingProxyStaysInThePool(store);
        }
    }

    @Test
    void aCoolingProxyIsNotExtractedFromRedis() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        try (RedisPoolStore store =
                RedisPoolStore.connect(RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix), StoreSettings.DEFAULTS)) {
            coolingProxyStaysInThePool(store);
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    @Test
    void aCoolingProxyIsNotExtractedFromARedisCluster() throws Exception {
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 0);
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        RedisClusterConfig.of(cluster.nodes()).withKeyPrefix(RedisE2e.randomPrefix()),
                        StoreSettings.DEFAULTS)) {
            coolingProxyStaysInThePool(store);
        }
    }

    private void coolingProxyStaysInThePool(PoolStore store) throws Exception {
        List<Proxy> seeded = RedisE2e.proxies(2, Clocks.wall().instant());
        try (ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()) {
            PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
            ProxyHealth cooling =
                    engine.runtime(seeded.get(0).id()).orElseThrow().health();
            for (int i = 0; i < 3; i++) { // passive rule: three failures in a row cool it
                long now = engine.ticker().read();
                cooling.recordFailure(cooling.tryAdmit(now), FailureKind.CONNECT_TIMEOUT, now);
            }
            assertEquals(HealthState.COOLING, cooling.state());
            assertEquals(
                    HealthState.HEALTHY,
                    engine.runtime(seeded.get(1).id()).orElseThrow().health().state());
            URI uri = RedisE2e.extractions(server.apiPort());

            HttpResponse<String> all = RedisE2e.extract(http, uri, 2, true);
            assertEquals(409, all.statusCode(), all.body());
            assertTrue(all.body().contains("\"available\":1"), all.body());
            assertEquals(2, store.available(RedisE2e.UPSTREAM), "allOrNothing short: nothing changed");

            HttpResponse<String> partial = RedisE2e.extract(http, uri, 2, false);
            assertEquals(200, partial.statusCode(), partial.body());
            assertEquals(List.of(seeded.get(1).id()), RedisE2e.ids(partial.body()));

            HttpResponse<String> again = RedisE2e.extract(http, uri, 2, false);
            assertEquals(200, again.statusCode(), again.body());
            assertEquals(List.of(), RedisE2e.ids(again.body()), "the cooling proxy is never handed out");
            assertEquals(1, store.available(RedisE2e.UPSTREAM), "the cooling proxy stays in the pool");
        }
    }
}
