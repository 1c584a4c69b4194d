package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.server.e2e.redis.RedisE2e;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.RedisClusterServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Issue 37: on a Redis Cluster store with {@code store.waitReplicas: 1} explicit, a master killed
 * and its replica promoted without a replica of its own: the console's Overview (headless
 * Chromium) shows a red line naming the shards that refuse extractions and why, and the Pool store
 * card says {@code durability refusing}; {@code GET /v1/admin/snapshot}'s {@code storeDurability}
 * is as the OpenAPI document describes it.
 */
@Tag("slow")
class ConsoleStoreDurabilityBrowserTest {

    private static final String TOKEN = "console-durability-admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void theOverviewShowsShardsRefusingWritesAfterAPromotionAndWhy() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                admin: { token: %s }
                """.formatted(TOKEN));
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 1, Duration.ofMillis(2000), true);
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        RedisClusterConfig.of(cluster.nodes())
                                .withKeyPrefix(RedisE2e.randomPrefix())
                                .withWait(1, RedisClusterConfig.DEFAULT_WAIT_TIMEOUT),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .pool(b -> b.store(store)
                                .proxies(RedisE2e.proxies(100, Clocks.wall().instant())))
                        .configDir(dir)
                        .start();
                HeadlessChromium browser = HeadlessChromium.start()) {
            int victim = cluster.masterPorts().get(0);
            cluster.kill(victim);
            int promoted = cluster.awaitPromotion(victim, Duration.ofSeconds(30));
            String why = "127.0.0.1:" + promoted + " has 0 replica(s) online, store.waitReplicas is 1";

            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/snapshot"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .build();
                HttpResponse<String> r = Await.atMost(Duration.ofSeconds(20))
                        .every(Duration.ofMillis(200))
                        .until(
                                "the snapshot view to show the promoted master's shards refusing",
                                () -> http.send(request, HttpResponse.BodyHandlers.ofString()),
                                a -> a.body().contains(why));
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(r.body().contains("\"durability\":\"refusing\""), r.body());
                OpenApiContract.get().check(request, null, r);
            }

            browser.driver.get("http://127.0.0.1:" + server.apiPort() + "/console/");
            browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
            browser.driver.findElement(By.id("token")).sendKeys(TOKEN);
            browser.driver.findElement(By.id("login-submit")).click();
            JavascriptExecutor js = (JavascriptExecutor) browser.driver;
            browser.waiting(30)
                    .until(d -> "overview".equals(js.executeScript("return document.body.dataset.rendered || ''")));
            browser.waiting(30).until(d -> count(js, "#ov-attention li.bad[data-durability='refusing']") == 1);
            String line = text(js, "#ov-attention li[data-durability='refusing']");
            assertTrue(line.contains("store shard(s) refuse extractions: store.waitReplicas 1 cannot be met"), line);
            assertTrue(line.contains(why), "the line says why: " + line);
            assertTrue(text(js, "#ov-store").contains("durability refusing"), text(js, "#ov-store"));
            assertEquals(
                    Boolean.TRUE,
                    js.executeScript("return document.getElementById('ov-store').classList.contains('bad')"));
            assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
        }
    }

    private static long count(JavascriptExecutor js, String css) {
        return (Long) js.executeScript("return document.querySelectorAll(arguments[0]).length", css);
    }

    private static String text(JavascriptExecutor js, String css) {
        Object t =
                js.executeScript("const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
        return ((String) t).strip();
    }
}
