package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console with {@value #SEEDED} proxies in the pool: the Proxies page asks the server for one
 * page (server-side pagination), so its first paint — from the navigation's start to the first
 * page of rows in the table, measured by the browser — stays under a second on loopback. Paging
 * forward and a filter stay fast too.
 */
@Tag("slow")
class ConsoleScaleBrowserTest {

    static final int SEEDED = 100_000;
    static final double FIRST_PAINT_LIMIT_MS = 1000;

    @TempDir
    static Path dir;

    static ConsoleServer server;
    static HeadlessChromium browser;

    @BeforeAll
    static void start() {
        server = ConsoleServer.start(dir, SEEDED);
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, args);
    }

    @Test
    void theProxiesPageFirstPaintsUnderOneSecondWithAHundredThousandProxies() {
        assertTrue(
                EmbeddedProxyPool.engineOf(server.server.pool()).snapshot().size() >= SEEDED,
                "the pool holds the seeded proxies");
        browser.driver.get(server.consoleUrl());
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        browser.driver.findElement(By.id("token")).sendKeys(ConsoleServer.TOKEN);
        browser.driver.findElement(By.id("login-submit")).click();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("page-overview")));

        // a warm-up load (JIT of the listing path, browser cache revalidation), then the measured ones:
        // a fresh navigation each time (about:blank first, so it is not a same-document hash change)
        double[] runs = new double[3];
        for (int i = -1; i < runs.length; i++) {
            browser.driver.get("about:blank");
            browser.driver.get(server.consoleUrl() + "#proxies");
            browser.waiting(30).until(d -> js("return window.__proxiesFirstRender || null") != null);
            if (i >= 0) {
                runs[i] = ((Number) js("return window.__proxiesFirstRender")).doubleValue();
            }
        }
        Object fcp = js(
                "const e = performance.getEntriesByName('first-contentful-paint')[0]; return e ? e.startTime : null;");
        double[] sorted = runs.clone();
        java.util.Arrays.sort(sorted);
        double median = sorted[1];
        Object api = js(
                "const e = performance.getEntriesByType('resource').filter(r => r.name.includes('/v1/admin/proxies'))[0];"
                        + " return e ? e.duration : null;");
        System.out.printf(
                "console proxies page with %,d proxies: table rendered %.1f / %.1f / %.1f ms after navigation start"
                        + " (last run: first contentful paint %s ms, GET /v1/admin/proxies %s ms)%n",
                SEEDED, runs[0], runs[1], runs[2], fcp, api);
        // the median of three loads: one slow load on a box shared with other builds is noise, two are a regression
        assertTrue(
                median < FIRST_PAINT_LIMIT_MS,
                "first paint of the Proxies page: median " + median + " ms of " + java.util.Arrays.toString(runs)
                        + ", limit " + FIRST_PAINT_LIMIT_MS + " ms");

        assertEquals(
                100,
                browser.driver
                        .findElements(By.cssSelector("#px-table tbody tr[data-id]"))
                        .size());
        long total = SEEDED
                + ((Number) ((Map<?, ?>) ((Map<?, ?>) server.admin("/snapshot").get("store")).get("up-a"))
                                .get("available"))
                        .longValue()
                + upB();
        assertEquals(
                "1–100 of " + total,
                browser.driver.findElement(By.id("px-range")).getText().strip());
        browser.screenshot("proxies-100k");

        // next page, server-side
        String firstOfPage1 = browser.driver
                .findElement(By.cssSelector("#px-table tbody tr[data-id]"))
                .getAttribute("data-id");
        browser.driver.findElement(By.id("px-next")).click();
        browser.waiting(20)
                .until(d -> d.findElement(By.id("px-range")).getText().startsWith("101–200"));
        List<String> page2 = browser.driver.findElements(By.cssSelector("#px-table tbody tr[data-id]")).stream()
                .map(e -> e.getAttribute("data-id"))
                .toList();
        assertEquals(100, page2.size());
        assertTrue(
                page2.getFirst().compareTo(firstOfPage1) > 0,
                "ascending ids: " + firstOfPage1 + " then " + page2.getFirst());
    }

    private static long upB() {
        Object b = ((Map<?, ?>) server.admin("/snapshot").get("store")).get("up-b");
        return b == null ? 0 : ((Number) ((Map<?, ?>) b).get("available")).longValue();
    }
}
