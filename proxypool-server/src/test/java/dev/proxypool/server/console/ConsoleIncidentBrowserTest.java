package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * Issue 37 items 13 and 17 in headless Chromium against a real {@code proxypool serve}: after an
 * auth incident (six pool-a proxies and two pool-b proxies disabled for {@code proxy_auth_rejected}),
 * the Proxies page filters by health state and reason, re-checks every matching proxy at once, acts
 * on a selection, searches by id and sorts; a 400 shows its message instead of a TypeError.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
@Tag("slow")
class ConsoleIncidentBrowserTest {

    @TempDir
    static Path dir;

    static ConsoleServer server;
    static HeadlessChromium browser;

    @BeforeAll
    static void start() {
        server = ConsoleServer.start(dir, 60);
        PoolEngine engine = EmbeddedProxyPool.engineOf(server.server.pool());
        long now = engine.ticker().read();
        for (int i : new int[] {0, 3, 6, 9, 12, 15, 1, 4}) { // 0..15 step 3: pool-a; 1 and 4: pool-b
            health(String.format("s%06d", i)).recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, now);
        }
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

    static ProxyHealth health(String id) {
        return EmbeddedProxyPool.engineOf(server.server.pool())
                .runtime(id)
                .orElseThrow()
                .health();
    }

    @BeforeEach
    void signedIn() {
        browser.driver.get(server.consoleUrl());
        js("sessionStorage.clear();");
        browser.driver.navigate().refresh();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        byId("token").sendKeys(ConsoleServer.TOKEN);
        byId("login-submit").click();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("page-overview")));
        browser.driver
                .findElement(By.cssSelector("#nav a[data-page='proxies']"))
                .click();
        waitRendered("proxies");
    }

    @AfterEach
    void noJavaScriptErrors() {
        assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, args);
    }

    private WebElement byId(String id) {
        return browser.driver.findElement(By.id(id));
    }

    private void waitRendered(String page) {
        browser.waiting(20).until(d -> page.equals(js("return document.body.dataset.rendered || ''")));
    }

    private void apply() {
        js("document.body.dataset.rendered = '';");
        byId("px-apply").click();
        waitRendered("proxies");
    }

    @SuppressWarnings("unchecked")
    private List<String> rows(String attribute) {
        return (List<String>) js(
                "return [...document.querySelectorAll('#px-table tr[data-id]')].map(r => r.getAttribute(arguments[0]));",
                attribute);
    }

    @Test
    @org.junit.jupiter.api.Order(1)
    void everyAuthDisabledProxyOfAnUpstreamIsRecheckedFromTheFilter() {
        browser.waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#px-upstream option[value='pool-a']"))
                        .isEmpty());
        new Select(byId("px-upstream")).selectByValue("pool-a");
        new Select(byId("px-health")).selectByValue("DISABLED");
        byId("px-reason").sendKeys("proxy_auth_rejected");
        apply();
        assertEquals(List.of("s000000", "s000003", "s000006", "s000009", "s000012", "s000015"), rows("data-id"));
        assertTrue(rows("data-health").stream().allMatch("DISABLED"::equals));

        byId("px-bulk")
                .findElement(By.cssSelector("button[data-bulk='recheck'][data-scope='filter']"))
                .click();
        browser.waiting(20).until(d -> byId("banner").getText().contains("6 matched, 6 changed"));
        assertTrue(
                byId("banner")
                        .getText()
                        .startsWith("Re-check of every proxy matching upstream=pool-a, health=DISABLED,"
                                + " reason=proxy_auth_rejected"),
                byId("banner").getText());
        for (String id : List.of("s000000", "s000003", "s000006", "s000009", "s000012", "s000015")) {
            assertEquals(HealthState.COOLING, health(id).state(), id);
            assertEquals("recheck_requested", health(id).status().reason().code());
        }
        assertEquals(HealthState.DISABLED, health("s000001").state(), "pool-b was not in the filter");
        browser.waiting(20).until(d -> rows("data-id").isEmpty());
        assertEquals(
                "proxy.bulk.recheck",
                ((List<java.util.Map<String, Object>>) server.admin("/audit").get("entries"))
                        .getFirst()
                        .get("action"));
    }

    @Test
    @org.junit.jupiter.api.Order(2)
    void aSelectionIsDisabledTheListSortsByHealthAndSearchesById() {
        new Select(byId("px-sort")).selectByValue("health");
        waitRendered("proxies");
        browser.waiting(20).until(d -> "DISABLED".equals(rows("data-health").getFirst()));
        List<String> health = rows("data-health");
        assertEquals(List.of("DISABLED", "DISABLED"), health.subList(0, 2), "worst first: " + health);

        for (String id : List.of("s000020", "s000021")) {
            browser.driver
                    .findElement(By.cssSelector("#px-table tr[data-id='" + id + "'] input.px-select"))
                    .click();
        }
        assertEquals("2 selected", byId("px-selected").getText());
        byId("px-bulk")
                .findElement(By.cssSelector("button[data-bulk='disable'][data-scope='selection']"))
                .click();
        browser.waiting(20).until(d -> byId("banner").getText().contains("2 matched, 2 changed"));
        browser.waiting(20)
                .until(d -> "disabled"
                        .equals(js("const r = document.querySelector(\"#px-table tr[data-id='s000020']\");"
                                + " return r ? r.dataset.state : '';")));
        assertEquals(HealthState.DISABLED, health("s000021").state());

        byId("px-id").sendKeys("s00005");
        apply();
        assertEquals(
                List.of(
                        "s000050", "s000051", "s000052", "s000053", "s000054", "s000055", "s000056", "s000057",
                        "s000058", "s000059"),
                rows("data-id").stream().sorted().toList());
    }

    /** Issue 37 item 17: the latency chart stops at a gap where P99 is null instead of drawing across it. */
    @Test
    @org.junit.jupiter.api.Order(4)
    void theChartDoesNotDrawAcrossANullGap() {
        Object d = js("const c = chart('Latency ms', '–', [{ name: 'P99', values: [5, 6, null, null, 7, 8, null, 4] }],"
                + " ['2026-01-01T00:00:00Z', '2026-01-01T00:00:14Z']);"
                + " const p = c.querySelector('path.line0');"
                + " return [p.getAttribute('d'), c.querySelectorAll('circle.dot0').length];");
        List<?> drawn = (List<?>) d;
        String path = (String) drawn.get(0);
        assertEquals(2, path.chars().filter(ch -> ch == 'M').count(), "two runs, each starting afresh: " + path);
        assertEquals(2, path.chars().filter(ch -> ch == 'L').count(), "no line into or out of a gap: " + path);
        assertEquals(1L, ((Number) drawn.get(1)).longValue(), "the lone sample after the last gap is a dot");
    }

    /** Issue 37 item 17: one time format, with its zone, on every page (audit, health history, chart axis). */
    @Test
    @org.junit.jupiter.api.Order(5)
    void everyPageShowsTimesInOneFormatWithTheZone() {
        String full = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC";
        browser.driver
                .findElement(By.cssSelector("#px-table tr[data-id='s000001'] button[data-action='history']"))
                .click();
        browser.waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#px-table tr[data-history-of='s000001'] [data-transition]"))
                        .isEmpty());
        String history = byId("px-table")
                .findElement(By.cssSelector("tr[data-history-of='s000001']"))
                .getText();
        assertTrue(history.matches("(?s).*since " + full + ".*"), history);
        assertTrue(history.matches("(?s).*" + full + " → DISABLED \\(proxy_auth_rejected.*"), history);
        browser.driver.findElement(By.cssSelector("#nav a[data-page='audit']")).click();
        waitRendered("audit");
        String at = browser.driver
                .findElement(By.cssSelector("#au-table tbody tr td:first-child"))
                .getText();
        assertTrue(at.matches(full), at);
        browser.driver
                .findElement(By.cssSelector("#nav a[data-page='overview']"))
                .click();
        waitRendered("overview");
        String axis = browser.driver
                .findElement(By.cssSelector("#ov-charts .chart .time-axis span"))
                .getText();
        assertTrue(axis.matches("\\d{2}:\\d{2}:\\d{2} UTC"), axis);
        assertTrue(
                byId("status").getText().matches("refreshed " + full),
                byId("status").getText());
    }

    /** Issue 37 item 17: a 400 from the listing is shown next to the filter, not thrown as a TypeError. */
    @Test
    @org.junit.jupiter.api.Order(3)
    void aRefusedFilterShowsTheApisMessage() {
        js("const s = document.getElementById('px-health'); s.append(new Option('sick', 'sick')); s.value = 'sick';");
        byId("px-apply").click();
        browser.waiting(20)
                .until(d -> !byId("px-filter")
                        .findElement(By.cssSelector("[data-error-for='filter']"))
                        .getText()
                        .isEmpty());
        assertEquals(
                "invalid_request: health must be HEALTHY, COOLING, PROBE_ALLOWED or DISABLED, got 'sick'",
                byId("px-filter")
                        .findElement(By.cssSelector("[data-error-for='filter']"))
                        .getText());
    }
}
