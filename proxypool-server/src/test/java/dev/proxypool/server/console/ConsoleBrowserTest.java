package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
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
 * The operations console in a real browser (Debian's headless Chromium through chromedriver)
 * against a real server with a seeded pool of {@value #SEEDED} proxies: sign in, the overview
 * matches the admin API, the proxies table filters, disabling a proxy takes it out of the pool and
 * writes an audit row, a sequential routing advances, a wrong token is refused, and bad form input
 * shows the API's message next to its field. Screenshots land in {@code target/console-screenshots/}.
 */
@Tag("slow")
class ConsoleBrowserTest {

    static final int SEEDED = 2_500;

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

    /** A failing test leaves a picture of what the browser showed: target/console-screenshots/failed-<test>.png. */
    @org.junit.jupiter.api.extension.RegisterExtension
    final org.junit.jupiter.api.extension.TestWatcher onFailure = new org.junit.jupiter.api.extension.TestWatcher() {
        @Override
        public void testFailed(org.junit.jupiter.api.extension.ExtensionContext context, Throwable cause) {
            if (browser != null) {
                browser.screenshot("failed-" + context.getRequiredTestMethod().getName());
            }
        }
    };

    @BeforeEach
    void signedOut() {
        browser.driver.get(server.consoleUrl());
        js("sessionStorage.clear();");
        browser.driver.navigate().refresh();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
    }

    @org.junit.jupiter.api.AfterEach
    void noJavaScriptErrors() {
        assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, args);
    }

    private WebElement byId(String id) {
        return browser.driver.findElement(By.id(id));
    }

    private void signIn(String token) {
        byId("token").clear();
        byId("token").sendKeys(token);
        byId("login-submit").click();
    }

    private void signedIn() {
        signIn(ConsoleServer.TOKEN);
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("page-overview")));
    }

    private void open(String page) {
        browser.driver
                .findElement(By.cssSelector("#nav a[data-page='" + page + "']"))
                .click();
        waitRendered(page);
    }

    private void waitRendered(String page) {
        browser.waiting(20).until(d -> page.equals(js("return document.body.dataset.rendered || ''")));
    }

    /** The rendered text of the first match, read in one script call (rows are re-rendered by live refreshes). */
    private String text(String css) {
        Object t = js("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css);
        if (t == null) {
            throw new org.openqa.selenium.NoSuchElementException("nothing matches " + css);
        }
        return ((String) t).strip();
    }

    @Test
    void signInShowsAnOverviewThatMatchesTheAdminApi() {
        signedIn();
        waitRendered("overview");
        assertEquals(ConsoleServer.TOKEN, js("return sessionStorage.getItem('proxypool.adminToken')"));
        assertFalse(browser.driver.getCurrentUrl().contains(ConsoleServer.TOKEN), "the token never goes into a URL");

        // the page refreshes every 2 s while the pipeline may still publish: wait until one refresh agrees with the API
        String[] last = {""};
        browser.waiting(30).until(d -> {
            Map<String, Object> snap = server.admin("/snapshot");
            String page = text("#ov-size .value") + " v" + text("#ov-snapshot .value");
            String api = snap.get("size") + " v" + snap.get("version");
            last[0] = "page " + page + " / api " + api;
            return page.equals(api);
        });
        Map<String, Object> snap = server.admin("/snapshot");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> store = (Map<String, Map<String, Object>>) snap.get("store");
        @SuppressWarnings("unchecked")
        Map<String, Object> sizes = (Map<String, Object>) snap.get("sizesByUpstream");
        for (String upstream : List.of("pool-a", "pool-b", "pool-c")) {
            String row = "#ov-pool tr[data-upstream='" + upstream + "'] ";
            assertEquals(
                    String.valueOf(store.get(upstream).get("available")),
                    text(row + "td[data-col='available']"),
                    upstream);
            assertEquals(
                    String.valueOf(store.get(upstream).get("disabled")),
                    text(row + "td[data-col='disabled']"),
                    upstream);
            assertEquals(String.valueOf(sizes.get(upstream)), text(row + "td[data-col='snapshot']"), upstream);
        }
        assertEquals(
                String.valueOf(SEEDED / 3 + 1),
                text("#ov-pool tr[data-upstream='pool-a'] td[data-col='available']"),
                "the seeded pool, as seeded");
        browser.waiting(20)
                .until(d -> browser.driver
                                .findElements(By.cssSelector("#ov-charts svg"))
                                .size()
                        == 6);
        assertEquals("Nothing needs attention.", text("#ov-attention"));

        // live: gateway traffic shows up in requests/s within a few samples (requests to a private
        // destination, refused by the gateway at once, are requests too)
        try (HttpClient gw = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.server.gatewayPort())))
                .connectTimeout(Duration.ofSeconds(10))
                .build()) {
            for (int i = 0; i < 40; i++) {
                HttpResponse<Void> r = gw.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                assertTrue(r.statusCode() >= 400, "refused: " + r.statusCode());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        browser.waiting(30).until(d -> Double.parseDouble(text("#ov-rps .value").replace(",", "")) > 0);
        browser.waiting(30).until(d -> text("#ov-attention").contains("The gateway answers"));
        browser.screenshot("overview");
    }

    @Test
    void aWrongTokenIsRejected() {
        signIn("not-the-admin-token");
        browser.waiting(20).until(d -> !byId("login-error").getText().isBlank());
        assertTrue(
                byId("login-error").getText().contains("401"),
                byId("login-error").getText());
        assertNull(js("return sessionStorage.getItem('proxypool.adminToken')"), "a refused token is not kept");
        assertTrue(byId("page-overview").getAttribute("hidden") != null, "no page is shown");
        browser.screenshot("login-rejected");
    }

    @Test
    void theProxiesTableFiltersAndADisabledProxyLeavesThePoolWithAnAuditRow() {
        signedIn();
        open("proxies");
        assertEquals("1–100 of " + countStored(), text("#px-range"));
        // masked: no full address on the page
        String firstHost = text("#px-table tbody tr:first-child td:nth-child(2) .addr");
        assertTrue(firstHost.matches("\\d+\\.\\d+\\.x\\.x:\\d+"), firstHost);

        new Select(byId("px-upstream")).selectByValue("pool-b");
        new Select(byId("px-protocol")).selectByValue("http");
        byId("px-country").sendKeys("DE");
        byId("px-apply").click();
        browser.waiting(20).until(d -> rowsAll("pool-b", "http", "country=DE"));
        // the same filter through the API: the page shows exactly its first page
        Map<String, Object> api =
                server.admin("/proxies?upstream=pool-b&protocol=http&label.country=DE&limit=100&masked=true");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> expected = (List<Map<String, Object>>) api.get("proxies");
        List<WebElement> rows = browser.driver.findElements(By.cssSelector("#px-table tbody tr[data-id]"));
        assertEquals(expected.size(), rows.size());
        assertEquals(expected.getFirst().get("id"), rows.getFirst().getAttribute("data-id"));
        browser.screenshot("proxies-filtered");

        // disable the first filtered proxy
        String id = rows.getFirst().getAttribute("data-id");
        long sizeBefore = ((Number) server.admin("/snapshot").get("size")).longValue();
        rows.getFirst()
                .findElement(By.cssSelector("button[data-action='disable']"))
                .click();
        browser.waiting(20)
                .until(d -> "disabled"
                        .equals(browser.driver
                                .findElement(By.cssSelector("#px-table tr[data-id='" + id + "']"))
                                .getAttribute("data-state")));
        assertTrue(text("#banner").contains("Disable of " + id + ": done"), text("#banner"));
        assertEquals(
                sizeBefore - 1, ((Number) server.admin("/snapshot").get("size")).longValue(), "it left the snapshot");
        assertTrue(EmbeddedProxyPool.engineOf(server.server.pool()).snapshot().proxies().stream()
                .noneMatch(p -> p.id().equals(id)));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> available = (List<Map<String, Object>>)
                server.admin("/proxies?upstream=pool-b&protocol=http&label.country=DE&state=available&limit=1000")
                        .get("proxies");
        assertTrue(available.stream().noneMatch(p -> p.get("id").equals(id)), "no longer available for extraction");

        // shown as disabled when the page filters on state
        new Select(byId("px-state")).selectByValue("disabled");
        byId("px-apply").click();
        browser.waiting(20).until(d -> {
            List<WebElement> r = d.findElements(By.cssSelector("#px-table tbody tr[data-id]"));
            return r.size() == 1 && id.equals(r.getFirst().getAttribute("data-id"));
        });

        open("audit");
        WebElement row = browser.driver.findElement(By.cssSelector("#au-table tbody tr:first-child"));
        assertEquals("proxy.disable", row.getAttribute("data-action"));
        assertTrue(row.getText().contains("proxy " + id), row.getText());
        assertTrue(row.getText().contains("\"disabled\""), "the after state: " + row.getText());
        browser.screenshot("audit");

        HttpResponse<String> undo = server.send("POST", "/proxies/" + id + "/enable", null);
        assertEquals(200, undo.statusCode(), undo.body());
    }

    @Test
    void revealingAnAddressIsExplicitAndAudited() {
        signedIn();
        open("proxies");
        WebElement first = browser.driver.findElement(By.cssSelector("#px-table tbody tr[data-id]"));
        String id = first.getAttribute("data-id");
        String full = EmbeddedProxyPool.engineOf(server.server.pool())
                .store()
                .get(id)
                .orElseThrow()
                .proxy()
                .host();
        assertFalse(
                browser.driver.getPageSource().contains(full + ":"),
                "the full address is not in the page before reveal");
        first.findElement(By.cssSelector("button[data-action='reveal']")).click();
        browser.waiting(20)
                .until(d -> d.findElement(By.cssSelector("#px-table tr[data-id='" + id + "'] .addr"))
                        .getText()
                        .startsWith(full + ":"));
        open("audit");
        assertEquals(
                "proxy.reveal",
                browser.driver
                        .findElement(By.cssSelector("#au-table tbody tr:first-child"))
                        .getAttribute("data-action"));
    }

    @Test
    void aProxyRowLinksToItsHealthRecordAndTransitions() {
        signedIn();
        open("proxies");
        WebElement first = browser.driver.findElement(By.cssSelector("#px-table tbody tr[data-id]"));
        String id = first.getAttribute("data-id");
        first.findElement(By.cssSelector("button[data-action='history']")).click();
        browser.waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#px-table tr[data-history-of='" + id + "']"))
                        .isEmpty());
        String shown = text("#px-table tr[data-history-of='" + id + "']");
        assertTrue(shown.contains("HEALTHY (created, initial) since"), shown);
        assertEquals(
                1,
                browser.driver
                        .findElements(By.cssSelector("#px-table tr[data-history-of='" + id + "'] [data-transition]"))
                        .size(),
                shown);
    }

    @Test
    void advancingASequentialRoutingMovesItToTheNextUpstream() {
        signedIn();
        open("upstreams");
        assertEquals(0, ((Number) server.admin("/routings/seq/sequential").get("index")).intValue());
        assertTrue(text("#seq-table tr[data-routing='seq'] td[data-col='position']")
                .startsWith("1 of 2 — up-a"));
        browser.driver
                .findElement(By.cssSelector("#seq-table tr[data-routing='seq'] button[data-action='advance']"))
                .click();
        browser.waiting(20)
                .until(d -> text("#seq-table tr[data-routing='seq'] td[data-col='position']")
                        .startsWith("2 of 2 — up-b"));
        Map<String, Object> state = server.admin("/routings/seq/sequential");
        assertEquals(1, ((Number) state.get("index")).intValue());
        assertEquals("admin_advance", state.get("reason"));
        // the upstream table shows the pipeline's view of each upstream
        browser.waiting(30)
                .until(d -> !text("#up-table tr[data-upstream='up-a'] td:nth-child(3)")
                        .startsWith("not fetched"));
        // what the last fetch dropped, by reason (inv-a.jsonl has one line that is not JSON)
        assertEquals("malformed_record 1", text("#up-table tr[data-upstream='up-a'] td[data-col='drops']"));
        assertEquals("–", text("#up-table tr[data-upstream='up-b'] td[data-col='drops']"));
        browser.screenshot("upstreams");
        browser.driver
                .findElement(By.cssSelector("#seq-table tr[data-routing='seq'] button[data-action='reset']"))
                .click();
        browser.waiting(20)
                .until(d -> text("#seq-table tr[data-routing='seq'] td[data-col='position']")
                        .startsWith("1 of 2 — up-a"));
        assertEquals(0, ((Number) server.admin("/routings/seq/sequential").get("index")).intValue());
    }

    @Test
    void badFormInputShowsTheApisMessageNextToTheField() {
        signedIn();
        open("upstreams");
        // empty name
        new Select(byId("up-provider")).selectByValue("lab");
        byId("up-save").click();
        String expectedName = message(
                server.send("POST", "/upstreams", "{\"name\": \"\", \"provider\": \"lab\", \"validate\": true}"));
        browser.waiting(20).until(d -> !errorFor("name").isBlank());
        assertEquals("invalid_request: " + expectedName, errorFor("name"));
        assertEquals("upstreams[].name: is required (got an empty name)", expectedName);

        // a negative number
        byId("up-name").sendKeys("night-shift");
        byId("up-low").sendKeys("-5");
        byId("up-save").click();
        String expectedLow = message(
                server.send(
                        "POST",
                        "/upstreams",
                        "{\"name\": \"night-shift\", \"provider\": \"lab\", \"fetch\": {\"lowWaterMark\": -5}, \"validate\": true}"));
        browser.waiting(20).until(d -> !errorFor("lowWaterMark").isBlank());
        assertEquals("invalid_request: " + expectedLow, errorFor("lowWaterMark"));
        assertTrue(expectedLow.contains("lowWaterMark"), expectedLow);
        assertEquals("", errorFor("name"), "the earlier error is cleared");
        assertTrue(byId("up-low").getAttribute("class").contains("invalid"));
        browser.screenshot("upstream-form-error");

        // fixed: it saves and the upstream is listed
        byId("up-low").clear();
        byId("up-low").sendKeys("5");
        byId("up-save").click();
        browser.waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#up-table tr[data-upstream='night-shift']"))
                        .isEmpty());
        assertEquals(
                5,
                ((Number) ((Map<?, ?>) server.admin("/upstreams/night-shift").get("fetch")).get("lowWaterMark"))
                        .intValue());
        assertEquals(204, server.send("DELETE", "/upstreams/night-shift", null).statusCode());
    }

    @Test
    void routingsAreListedInMatchOrder() {
        signedIn();
        open("routings");
        List<WebElement> rows = browser.driver.findElements(By.cssSelector("#rt-table tbody tr[data-routing]"));
        assertEquals(
                List.of("seq", "default"),
                rows.stream().map(r -> r.getAttribute("data-routing")).toList());
        assertTrue(rows.get(0).getText().contains("sequential"), rows.get(0).getText());
        assertTrue(rows.get(0).getText().contains("*.seq.example"), rows.get(0).getText());
        assertTrue(
                rows.get(1).getText().contains("\"enabled\": true"), rows.get(1).getText());
        browser.screenshot("routings");
        // logging out forgets the token
        byId("logout").click();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        assertNull(js("return sessionStorage.getItem('proxypool.adminToken')"));
    }

    @Test
    void theConsoleIsServedWithAStrictContentSecurityPolicy() throws Exception {
        try (var http = java.net.http.HttpClient.newHttpClient()) {
            for (String file : List.of("", "console.js", "console.css")) {
                HttpResponse<String> r = http.send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.consoleUrl() + file))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), file);
                assertEquals(
                        Console.CONTENT_SECURITY_POLICY,
                        r.headers().firstValue("Content-Security-Policy").orElse(""),
                        file);
                assertEquals(
                        "nosniff",
                        r.headers().firstValue("X-Content-Type-Options").orElse(""),
                        file);
                assertEquals("no-cache", r.headers().firstValue("Cache-Control").orElse(""), file);
                String type = r.headers().firstValue("Content-Type").orElse("");
                assertTrue(
                        type.startsWith(
                                        file.isEmpty()
                                                ? "text/html"
                                                : file.endsWith(".js") ? "text/javascript" : "text/css")
                                || (file.endsWith(".js") && type.startsWith("application/javascript")),
                        file + ": " + type);
                assertFalse(
                        java.util.regex.Pattern.compile("innerHTML\\s*=|outerHTML|insertAdjacentHTML|document\\.write")
                                .matcher(r.body())
                                .find(),
                        file + " never writes HTML from data");
            }
            HttpResponse<String> bare = http.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.base + "/console"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(301, bare.statusCode());
            assertEquals("/console/", bare.headers().firstValue("Location").orElse(""));
        }
    }

    private boolean rowsAll(String upstream, String protocol, String label) {
        @SuppressWarnings("unchecked")
        List<String> rows =
                (List<String>) js("return Array.from(document.querySelectorAll('#px-table tbody tr[data-id]'))"
                        + ".map(r => r.innerText);");
        return !rows.isEmpty()
                && rows.stream().allMatch(t -> t.contains(upstream) && t.contains(protocol) && t.contains(label));
    }

    private long countStored() {
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> store =
                (Map<String, Map<String, Object>>) server.admin("/snapshot").get("store");
        long n = 0;
        for (Map<String, Object> c : store.values()) {
            n += ((Number) c.get("available")).longValue() + ((Number) c.get("disabled")).longValue();
        }
        return n;
    }

    private String errorFor(String field) {
        return text("#up-form [data-error-for='" + field + "']");
    }

    private static String message(HttpResponse<String> r) {
        assertEquals(400, r.statusCode(), r.body());
        return (String)
                dev.proxypool.server.persistence.JsonTree.parseObject(r.body()).get("message");
    }
}
