package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The console's operations views in headless Chromium against a real {@code proxypool serve} with
 * real gateway traffic: why requests fail (the error breakdown by reason, routing and upstream), the
 * request log with its filters and nothing secret or unmasked in the page, the red lines of the
 * Overview (an upstream without a healthy proxy, its provider failing to fetch, a routing without a
 * candidate), the "cannot be reached" banner clearing once the API answers again, "Fetch now"
 * reporting the finished fetch, and every page fitting a 390 × 844 phone.
 *
 * <p>The server: upstream {@code up-a} (a JSONL inventory), upstream {@code up-dead} whose provider
 * is an HTTP feed on a closed loopback port (every fetch fails), routing {@code dead} over
 * {@code up-dead} for {@code *.dead.example}, a catch-all {@code default}, and one client
 * {@code alice} (so a request without credentials answers 407). The red-line test runs first, before
 * any gateway traffic.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
@Tag("slow")
class ConsoleOpsBrowserTest {

    static final String TOKEN = "console-ops-admin-token-0123456789";
    static final String SECRET = "alice-s3cret-for-the-gateway";

    @TempDir
    static Path dir;

    static ProxyPoolServer server;
    static HeadlessChromium browser;
    static final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @BeforeAll
    static void start() throws IOException {
        StringBuilder inv = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            inv.append("{\"host\": \"198.51.100.")
                    .append(10 + i)
                    .append("\", \"port\": 3128, \"protocol\": \"http\"}\n");
        }
        Files.writeString(dir.resolve("inv-a.jsonl"), inv);
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // nobody listens there once closed: every fetch is refused
        }
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: %s, requestLog: 200 }
                clients:
                  - { name: alice, secret: %s }
                providers:
                  - { name: lab, type: jsonl_inventory, path: inv-a.jsonl }
                  - { name: gone, type: http_json_feed, url: "http://127.0.0.1:%d/list", timeout: 2s }
                upstreams:
                  - { name: up-a, provider: lab, validate: false }
                  - { name: up-dead, provider: gone, validate: false }
                routings:
                  - { name: dead, match: { hosts: ["*.dead.example"] }, upstreams: [up-dead] }
                  - { name: default, filter: { protocol: http } }
                health: { active: { enabled: false } }
                """.formatted(TOKEN, SECRET, closed));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
        Await.atMost(Duration.ofSeconds(30))
                .until(
                        "the pipeline to publish up-a",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .upstreams(),
                        u -> u.contains("up-a"));
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
        http.close();
    }

    @org.junit.jupiter.api.extension.RegisterExtension
    final org.junit.jupiter.api.extension.TestWatcher onFailure = new org.junit.jupiter.api.extension.TestWatcher() {
        @Override
        public void testFailed(org.junit.jupiter.api.extension.ExtensionContext context, Throwable cause) {
            if (browser != null) {
                browser.screenshot(
                        "failed-ops-" + context.getRequiredTestMethod().getName());
            }
        }
    };

    @BeforeEach
    void signedIn() {
        browser.driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        browser.driver.get("http://127.0.0.1:" + server.apiPort() + "/console/");
        js("sessionStorage.clear();");
        browser.driver.navigate().refresh();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        browser.driver.findElement(By.id("token")).sendKeys(TOKEN);
        browser.driver.findElement(By.id("login-submit")).click();
        waitRendered("overview");
    }

    @AfterEach
    void noJavaScriptErrors() {
        assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, args);
    }

    private void waitRendered(String page) {
        browser.waiting(30).until(d -> page.equals(js("return document.body.dataset.rendered || ''")));
    }

    private void open(String page) {
        js("location.hash = arguments[0];", "#" + page);
        waitRendered(page);
    }

    private String text(String css) {
        Object t = js("const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
        return ((String) t).strip();
    }

    private Map<String, Object> admin(String path) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin" + path))
                            .header("Authorization", "Bearer " + TOKEN)
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), path + ": " + r.body());
            return JsonTree.parseObject(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One request through the gateway on a raw socket; its status code. */
    private static int gateway(String target, boolean authenticated) {
        return authenticated ? gateway(target, "alice", SECRET) : gateway(target, null, null);
    }

    /** One request through the gateway as {@code user}:{@code password} (none when user is null). */
    private static int gateway(String target, String user, String password) {
        try (Socket s = new Socket("127.0.0.1", server.gatewayPort())) {
            s.setSoTimeout(20_000);
            String host = URI.create(target).getHost();
            String head = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (user != null
                            ? "Proxy-Authorization: Basic "
                                    + Base64.getEncoder()
                                            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                                    + "\r\n"
                            : "")
                    + "Connection: close\r\n\r\n";
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.substring(9, 12));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Requests that fail for three reasons: no credentials, a denied destination, a routing without candidates. */
    private static void failingTraffic() {
        for (int i = 0; i < 3; i++) {
            assertEquals(407, gateway("http://shop.example/", false));
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(403, gateway("http://127.0.0.1:9/", true));
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(503, gateway("http://x.dead.example/", true));
        }
    }

    private long apiCount(String path, String listKey, String field, String value) {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) admin(path).get(listKey);
        return rows.stream()
                .filter(r -> value.equals(r.get(field)))
                .mapToLong(r -> ((Number) r.get("count")).longValue())
                .sum();
    }

    @Test
    void theOverviewSaysWhyRequestsFailByReasonRoutingAndUpstream() {
        failingTraffic();
        // the page refreshes every 2 s: wait until it shows what the API counts
        browser.waiting(30).until(d -> {
            String shown = text("#ov-err-reason tr[data-reason='auth_required'] td[data-col='count']");
            return !shown.isEmpty() && Long.parseLong(shown) >= 3;
        });
        for (String reason : List.of("auth_required", "destination_denied", "no_candidate")) {
            browser.waiting(30)
                    .until(d -> text("#ov-err-reason tr[data-reason='" + reason + "'] td[data-col='count']")
                            .equals(String.valueOf(apiCount("/errors", "byReason", "reason", reason))));
        }
        // per routing: the routing without candidates shows its no_candidate; denials before routing count under none
        browser.waiting(30)
                .until(d -> text("#ov-err-routing tr[data-routing='dead']").contains("no_candidate"));
        assertTrue(text("#ov-err-routing tr[data-routing='none']").contains("auth_required"), text("#ov-err-routing"));
        assertTrue(
                text("#ov-err-routing tr[data-routing='none']").contains("destination_denied"),
                text("#ov-err-routing"));
        assertTrue(
                text("#ov-err-upstream tr[data-upstream='none']").contains("no_candidate"), text("#ov-err-upstream"));
        assertTrue(text("#ov-attention").contains("gateway error(s) in the last 15 min"), text("#ov-attention"));

        // a routing's row leads to its failed requests
        browser.driver
                .findElement(By.cssSelector("#ov-err-routing tr[data-routing='dead'] a"))
                .click();
        waitRendered("requests");
        assertEquals("dead", browser.driver.findElement(By.id("rq-routing")).getAttribute("value"));
        browser.waiting(20)
                .until(d -> !browser.driver
                        .findElements(By.cssSelector("#rq-table tr[data-reason]"))
                        .isEmpty());
        for (Object reason : (List<?>)
                js("return [...document.querySelectorAll('#rq-table tr[data-seq]')].map(r => r.dataset.reason);")) {
            assertEquals("no_candidate", reason);
        }
        browser.screenshot("ops-errors");

        // per routing on the Routings page too; a routing over every upstream says so
        open("routings");
        browser.waiting(20)
                .until(d -> text("#rt-table tr[data-routing='dead'] td[data-col='errors']")
                        .contains("no_candidate"));
        assertEquals("–", text("#rt-table tr[data-routing='default'] td[data-col='errors']"));
        assertTrue(text("#rt-table tr[data-routing='default'] td:nth-child(5)").equals("all"), text("#rt-table"));
    }

    @Test
    void theRequestLogListsFiltersAndShowsNoSecretNorAnUnmaskedAddress() {
        failingTraffic();
        assertEquals(407, gateway("http://shop.example/", "mallory", "wrong-pass-5e7a1c"));
        open("requests");
        browser.waiting(20)
                .until(d -> browser.driver
                                .findElements(By.cssSelector("#rq-table tr[data-seq]"))
                                .size()
                        >= 7);
        // every entry of the API's log is a row, newest first
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> api =
                (List<Map<String, Object>>) admin("/requests?limit=5").get("entries");
        assertFalse(api.isEmpty());
        // how far back each ring goes (issue 37 item 15): all requests, and failures in their own ring
        String reach = text("#rq-reach");
        assertTrue(reach.startsWith("All requests go back to "), reach);
        assertTrue(reach.contains("; failures (their own ring of 200) go back to "), reach);
        assertFalse(reach.contains("none yet"), reach);

        new Select(browser.driver.findElement(By.id("rq-reason"))).selectByValue("auth_required");
        browser.driver.findElement(By.id("rq-apply")).click();
        browser.waiting(20).until(d -> {
            @SuppressWarnings("unchecked")
            List<String> reasons = (List<String>)
                    js("return [...document.querySelectorAll('#rq-table tr[data-seq]')].map(r => r.dataset.reason);");
            return reasons.size() >= 3 && reasons.stream().allMatch("auth_required"::equals);
        });
        assertTrue(text("#rq-table tr[data-seq] td:nth-child(3)").contains("127.0.x.x"), text("#rq-table"));
        assertTrue(text("#rq-table tr[data-seq] td[data-col='status']").equals("407"));
        // issue 37 item 17: a 407 shows the username that tried (never its password); "–" only when none was named
        browser.waiting(20)
                .until(d -> !d.findElements(By.cssSelector("#rq-table [data-attempted='mallory']"))
                        .isEmpty());
        assertEquals("mallory (refused)", text("#rq-table [data-attempted='mallory']"));
        assertTrue(
                (Boolean) js("return [...document.querySelectorAll('#rq-table tr[data-reason=\"auth_required\"]"
                        + " td[data-col=\"client\"]')].some(td => td.innerText.startsWith('–'));"),
                "a 407 without credentials still shows –");
        assertFalse(browser.driver.getPageSource().contains("wrong-pass-5e7a1c"), "never the password");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> refused = (List<Map<String, Object>>)
                admin("/requests?reason=auth_required").get("entries");
        assertEquals("mallory", refused.getFirst().get("attemptedUser"));
        assertEquals(null, refused.getLast().get("attemptedUser"));

        new Select(browser.driver.findElement(By.id("rq-reason"))).selectByValue("");
        new Select(browser.driver.findElement(By.id("rq-status"))).selectByValue("5xx");
        browser.driver.findElement(By.id("rq-apply")).click();
        browser.waiting(20).until(d -> {
            @SuppressWarnings("unchecked")
            List<String> statuses = (List<String>)
                    js("return [...document.querySelectorAll('#rq-table tr[data-seq]')].map(r => r.dataset.status);");
            return statuses.size() >= 2 && statuses.stream().allMatch(s -> s.startsWith("5"));
        });
        new Select(browser.driver.findElement(By.id("rq-status"))).selectByValue("");
        browser.driver.findElement(By.id("rq-client")).sendKeys("alice");
        browser.driver.findElement(By.id("rq-apply")).click();
        browser.waiting(20).until(d -> {
            @SuppressWarnings("unchecked")
            List<String> reasons = (List<String>)
                    js("return [...document.querySelectorAll('#rq-table tr[data-seq]')].map(r => r.dataset.reason);");
            return reasons.size() >= 4 && !reasons.contains("auth_required");
        });

        String source = browser.driver.getPageSource();
        String basic = Base64.getEncoder().encodeToString(("alice:" + SECRET).getBytes(StandardCharsets.UTF_8));
        assertFalse(source.contains(SECRET), "the client's secret is not in the page");
        assertFalse(source.contains(basic), "nor its Basic credentials");
        assertFalse(source.contains("127.0.0.1"), "the client's address is masked");
        assertFalse(source.contains("198.51.100."), "no proxy address");
        assertFalse(source.contains("dead.example"), "no destination");
        browser.screenshot("ops-requests");
    }

    @Test
    @org.junit.jupiter.api.Order(1) // first: before any gateway traffic (the latency card has none to show)
    void theOverviewFlagsTheBrokenUpstreamItsFailingProviderAndTheRoutingWithoutCandidates() {
        browser.waiting(30).until(d -> text("#ov-attention").contains("Provider gone fails to fetch upstream up-dead"));
        String flags = text("#ov-attention");
        assertTrue(flags.contains("Upstream up-dead has no healthy proxy"), flags);
        assertTrue(flags.contains("Routing dead has no candidate"), flags);
        assertFalse(flags.contains("Upstream up-a has no healthy proxy"), flags);
        assertTrue(
                (Boolean)
                        js(
                                "return [...document.querySelectorAll('#ov-attention li.bad')]"
                                        + ".some(li => li.textContent.includes('up-dead') && li.querySelector('a[href=\"#upstreams\"]'));"),
                "the red line links to the Upstreams page");
        // the upstream without a proxy has its row in the pool table, marked
        assertEquals("0", text("#ov-pool tr[data-upstream='up-dead'] td[data-col='snapshot']"));
        assertTrue((Boolean) js("return document.querySelector(\"#ov-pool tr[data-upstream='up-dead']\")"
                + ".classList.contains('broken');"));
        // the cards' counts are the table's column sums
        long healthy = ((Number) js("return [...document.querySelectorAll(\"#ov-pool td[data-col='healthy']\")]"
                        + ".reduce((a, td) => a + Number(td.textContent), 0);"))
                .longValue();
        assertEquals(String.valueOf(healthy), text("#ov-healthy .value"));
        // no gateway request ended in the last minute: no latency, not 0 ms
        assertEquals("–", text("#ov-latency .value"));
        // the charts have a time axis and a legend
        assertTrue(text("#ov-charts .chart .time-axis").contains(":"), text("#ov-charts .chart .time-axis"));
        assertTrue(text("#ov-charts").contains("errors/s"), "legend names each line");

        browser.driver
                .findElement(By.cssSelector("#ov-attention li.bad a[href='#upstreams']"))
                .click();
        waitRendered("upstreams");
        browser.screenshot("ops-overview-flags");
    }

    /**
     * Issue 37 item 16: three of up-a's four proxies disabled (not all: the zero-healthy line stays
     * quiet) raise the healthy-share flag, whose link marks up-a's row of the pool table; a routing
     * whose requests all answer no_candidate raises its flag, whose link marks its Routings row.
     * Last: it leaves up-a mostly disabled.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void redFlagsForALowHealthyShareAndAMostlyNoCandidateRoutingLandOnTheirEvidence() {
        var engine = EmbeddedProxyPool.engineOf(server.pool());
        var snapshot = engine.snapshot();
        int disabled = 0;
        for (int slot = 0; slot < snapshot.size() && disabled < 3; slot++) {
            if (snapshot.proxy(slot).upstream().equals("up-a")) {
                snapshot.runtime(slot)
                        .health()
                        .recordFailure(
                                dev.proxypool.core.health.Admission.ADMITTED,
                                dev.proxypool.core.health.FailureKind.PROXY_AUTH_REJECTED,
                                engine.ticker().read());
                disabled++;
            }
        }
        assertEquals(3, disabled);
        for (int i = 0; i < 12; i++) {
            assertEquals(503, gateway("http://y.dead.example/", true));
        }
        browser.waiting(30).until(d -> text("#ov-attention").contains("Upstream up-a: 1 of 4 proxies healthy"));
        String flags = text("#ov-attention");
        assertTrue(flags.contains("(25 %, below 50 %)"), flags);
        assertFalse(flags.contains("Upstream up-a has no healthy proxy"), flags);
        assertTrue(flags.contains("Routing dead:"), flags);
        assertTrue(flags.contains("requests found no proxy (no_candidate, 100 %, above 50 %)"), flags);

        browser.driver
                .findElement(By.cssSelector("#ov-attention li[data-upstream='up-a'] a[data-evidence='upstream']"))
                .click();
        browser.waiting(10)
                .until(d -> (Boolean) js("return document.querySelector(\"#ov-pool tr[data-upstream='up-a']\")"
                        + ".classList.contains('flagged');"));
        assertEquals("1", text("#ov-pool tr[data-upstream='up-a'] td[data-col='healthy']"), "the health counts");
        assertEquals("3", text("#ov-pool tr[data-upstream='up-a'] td[data-col='health-disabled']"));

        browser.driver
                .findElement(By.cssSelector("#ov-attention li[data-routing='dead'] a[data-evidence='routing']"))
                .click();
        waitRendered("routings");
        browser.waiting(10)
                .until(d -> (Boolean) js("return document.querySelector(\"#rt-table tr[data-routing='dead']\")"
                        + ".classList.contains('flagged');"));
        assertFalse((Boolean) js("return document.querySelector(\"#rt-table tr[data-routing='default']\")"
                + ".classList.contains('flagged');"));
        browser.screenshot("ops-red-flags");
    }

    @Test
    void theCannotBeReachedBannerClearsWhenTheServerAnswersAgain() {
        browser.driver.executeCdpCommand("Network.enable", Map.of());
        try {
            browser.driver.executeCdpCommand(
                    "Network.emulateNetworkConditions",
                    Map.of("offline", true, "latency", 0, "downloadThroughput", -1, "uploadThroughput", -1));
            browser.waiting(20)
                    .until(d -> (Boolean) js("return !document.getElementById('banner').hidden")
                            && text("#banner").contains("cannot be reached"));
        } finally {
            browser.driver.executeCdpCommand(
                    "Network.emulateNetworkConditions",
                    Map.of("offline", false, "latency", 0, "downloadThroughput", -1, "uploadThroughput", -1));
        }
        browser.waiting(20).until(d -> (Boolean) js("return document.getElementById('banner').hidden"));
        browser.driver.executeCdpCommand("Network.disable", Map.of());
        // the browser logs each refused fetch of the outage itself; nothing else may be there
        List<String> errors = new ArrayList<>(browser.jsErrors());
        errors.removeIf(e -> e.contains("net::ERR_INTERNET_DISCONNECTED"));
        assertEquals(List.of(), errors, "JavaScript errors besides the outage's refused fetches");
    }

    @Test
    void fetchNowSaysWhenTheFetchHasFinished() {
        open("upstreams");
        browser.driver
                .findElement(By.cssSelector("#up-table tr[data-upstream='up-a'] button[data-action='fetch']"))
                .click();
        browser.waiting(60).until(d -> text("#banner").contains("Fetch of up-a finished"));
        assertTrue(
                text("#banner").contains("success")
                        || text("#banner").contains("duplicate_only")
                        || text("#banner").contains("empty"),
                text("#banner"));
    }

    @Test
    void theFaviconIsServedUnderTheConsolePolicy() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/console/favicon.svg"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertTrue(
                r.headers().firstValue("Content-Type").orElse("").startsWith("image/svg+xml"),
                r.headers().toString());
        assertTrue(r.headers().firstValue("Content-Security-Policy").isPresent());
        assertTrue(r.body().startsWith("<svg"));
        assertEquals("favicon.svg", js("return document.querySelector('link[rel=icon]').getAttribute('href');"));
    }

    @Test
    void everyPageFitsA390PixelPhone() {
        failingTraffic(); // so the request log and the breakdown have rows to lay out
        browser.driver.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", 390, "height", 844, "deviceScaleFactor", 2, "mobile", true));
        try {
            browser.driver.navigate().refresh(); // signed in still (session storage): the overview again
            waitRendered("overview");
            assertFalse(
                    browser.driver.findElement(By.id("nav")).isDisplayed(), "the navigation is collapsed on a phone");
            for (String page :
                    List.of("overview", "requests", "upstreams", "proxies", "routings", "audit", "operators")) {
                browser.driver.findElement(By.id("nav-toggle")).click();
                browser.waiting(10)
                        .until(d -> browser.driver
                                .findElement(By.cssSelector("#nav a[data-page='" + page + "']"))
                                .isDisplayed());
                browser.driver
                        .findElement(By.cssSelector("#nav a[data-page='" + page + "']"))
                        .click();
                waitRendered(page);
                assertFalse(browser.driver.findElement(By.id("nav")).isDisplayed(), "the menu closes on " + page);
                long width = ((Number) js("return document.documentElement.scrollWidth;")).longValue();
                browser.screenshot("ops-phone-" + page);
                assertTrue(width <= 390, page + " is " + width + " px wide on a 390 px screen");
            }
        } finally {
            browser.driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }
}
