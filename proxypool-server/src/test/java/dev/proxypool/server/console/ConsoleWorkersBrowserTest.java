package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.coordination.WorkerRegistry;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.server.e2e.redis.RedisE2e;
import dev.proxypool.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * Issue #22: the console Overview of a control plane flags workers whose snapshot is behind or old,
 * each with a red line linking to the Workers table, in headless Chromium. A real control plane
 * ({@code --role control} on the local Redis, random prefix); its workers are heartbeats written
 * with the real {@link WorkerRegistry} (fast: no worker processes): one up to date, one serving the
 * published version but published 40 minutes ago (over half of {@code cluster.validity: 1h}), one on
 * another lineage (behind by the whole head), and one with an older release's plain value (unknown,
 * not flagged).
 */
@Tag("slow")
class ConsoleWorkersBrowserTest {

    private static final String TOKEN = "console-workers-admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void theOverviewFlagsStaleWorkersWithALinkAndListsEveryWorker() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Path cfg = dir.resolve("proxypool.yaml");
        // no renewal during the test (renewAfter 30m): the up-to-date worker stays up to date
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                health: { active: { enabled: false } }
                admin: { token: %s }
                cluster: { validity: 1h, renewAfter: 30m, workerTtl: 2m }
                """.formatted(prefix, TOKEN));
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        RedisStoreConfig redis =
                RedisStoreConfig.fromUri("redis://127.0.0.1:6379").withKeyPrefix(prefix);
        CoordinationRedis where = CoordinationRedis.of(redis);
        try (ProxyPoolServer control = ProxyPoolServer.builder(config)
                        .role(ServeRole.CONTROL)
                        .configDir(dir)
                        .start();
                WorkerRegistry.Reader reader = WorkerRegistry.reader(where);
                WorkerRegistry fresh = WorkerRegistry.open(where, config.cluster(), "w-fresh", "10.1.0.1:8080");
                WorkerRegistry old = WorkerRegistry.open(where, config.cluster(), "w-old", "10.1.0.2:8080");
                WorkerRegistry lineage = WorkerRegistry.open(where, config.cluster(), "w-lineage", "10.1.0.3:8080");
                RedisClient raw =
                        RedisClient.builder().hostAndPort("127.0.0.1", 6379).build();
                HeadlessChromium browser = HeadlessChromium.start()) {
            WorkerRegistry.Fleet head = Await.atMost(Duration.ofSeconds(20))
                    .until("the control plane publishes", reader::read, f -> f.headVersion() > 0);
            Instant now = Instant.now();
            fresh.applied(head.headEpoch(), head.headVersion(), now.minusSeconds(2), now);
            fresh.heartbeat();
            old.applied(head.headEpoch(), head.headVersion(), now.minus(Duration.ofMinutes(40)), now);
            old.heartbeat();
            lineage.applied(head.headEpoch() + 1, 99, now.minusSeconds(5), now);
            lineage.heartbeat();
            raw.set(
                    prefix + "workers:w-legacy",
                    "10.1.0.4:8080",
                    SetParams.setParams().px(120_000));
            raw.sadd(prefix + "workers", "w-legacy");

            // the answer the console reads, with an unknown worker's nulls, as the OpenAPI document describes it
            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + control.apiPort() + "/v1/admin/snapshot"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .build();
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(r.body().contains("\"snapshotVersion\":null"), r.body());
                OpenApiContract.get().check(request, null, r);
            }

            browser.driver.get("http://127.0.0.1:" + control.apiPort() + "/console/");
            browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
            browser.driver.findElement(By.id("token")).sendKeys(TOKEN);
            browser.driver.findElement(By.id("login-submit")).click();
            JavascriptExecutor js = (JavascriptExecutor) browser.driver;
            browser.waiting(30)
                    .until(d -> "overview".equals(js.executeScript("return document.body.dataset.rendered || ''")));
            browser.waiting(30).until(d -> count(js, "#ov-workers-table tbody tr[data-worker]") == 4);

            String flags = text(js, "#ov-attention");
            assertEquals(1, count(js, "#ov-attention li.bad[data-worker='w-old']"), flags);
            assertTrue(text(js, "#ov-attention li[data-worker='w-old']").contains("published 40 min ago"), flags);
            assertEquals(1, count(js, "#ov-attention li.bad[data-worker='w-lineage']"), flags);
            assertTrue(
                    text(js, "#ov-attention li[data-worker='w-lineage']")
                            .contains(head.headVersion() + " version(s) behind"),
                    flags);
            assertEquals(
                    0, count(js, "#ov-attention li[data-worker='w-fresh']"), "an up-to-date worker is calm: " + flags);
            assertEquals(0, count(js, "#ov-attention li[data-worker='w-legacy']"), "unknown is not flagged: " + flags);
            assertFalse(flags.contains("Nothing needs attention"), flags);

            // the table: every worker, the flagged ones marked, the older release's heartbeat unknown
            assertEquals(
                    String.valueOf(head.headVersion()),
                    text(js, "#ov-workers-table tr[data-worker='w-fresh'] td[data-col='version']"));
            assertEquals("0", text(js, "#ov-workers-table tr[data-worker='w-fresh'] td[data-col='behind']"));
            // issue 37 item 17: the Overview card shows the version the Workers table is measured against
            assertEquals(String.valueOf(head.headVersion()), text(js, "#ov-snapshot .value"));
            assertTrue(
                    text(js, "#ov-workers-note").startsWith("published version " + head.headVersion()),
                    text(js, "#ov-workers-note"));
            assertEquals("40 min", text(js, "#ov-workers-table tr[data-worker='w-old'] td[data-col='age']"));
            assertEquals("unknown", text(js, "#ov-workers-table tr[data-worker='w-legacy'] td[data-col='version']"));
            assertEquals("unknown", text(js, "#ov-workers-table tr[data-worker='w-legacy'] td[data-col='behind']"));
            assertEquals(
                    List.of(false, true, true, false),
                    List.of("w-fresh", "w-lineage", "w-old", "w-legacy").stream()
                            .map(id -> (Boolean) js.executeScript(
                                    "return document.querySelector(arguments[0]).classList.contains('broken')",
                                    "#ov-workers-table tr[data-worker='" + id + "']"))
                            .toList());

            // the red line's link leads to the Workers table, on the same page
            browser.driver
                    .findElement(By.cssSelector("#ov-attention li[data-worker='w-old'] a"))
                    .click();
            browser.waiting(10).until(d -> (Boolean)
                    js.executeScript("const r = document.getElementById('ov-workers').getBoundingClientRect();"
                            + " return r.top >= 0 && r.top < window.innerHeight;"));
            assertEquals("overview", js.executeScript("return document.body.dataset.rendered"));
            assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
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
