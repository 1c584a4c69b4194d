package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The console's Manage page in a real browser (headless Chromium) against a real server (memory
 * stores, loopback): providers, routings, clients and credential refs are created, edited and
 * deleted through the page; a form's own check stops a bad value before any request; deleting a
 * provider an upstream uses names the upstream first and shows the API's 409 in words; a client
 * created on the page gets a generated secret shown once, which authenticates a real gateway
 * request (through a real HTTP proxy to a real origin) until Rotate replaces it; a viewer sees no
 * write action; nothing scrolls sideways on a 390 px phone. No JavaScript error after any test.
 */
@Tag("slow")
class ConsoleManageBrowserTest {

    static final String TOKEN = "console-manage-admin-token-0123456789";
    static final String KEY = "apikey-canary-1b9e77c4d2";

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy proxy;
    static ProxyPoolServer server;
    static String base;
    static HeadlessChromium browser;
    static final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        proxy = FakeHttpProxy.start();
        Files.writeString(
                dir.resolve("inv.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: %s }
                # a client that always has a secret: without one, a loopback gateway admits anyone (dev mode)
                clients: [{ name: keeper, secret: keeper-secret-0123456789 }]
                security: { allowDestinations: ["127.0.0.0/8"] }
                providers:
                  - { name: lab, type: jsonl_inventory, path: inv.jsonl }
                upstreams:
                  - { name: up-a, provider: lab, validate: false }
                routings:
                  - { name: default, upstreams: [up-a] }
                health: { active: { enabled: false } }
                """.formatted(TOKEN));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
        base = "http://127.0.0.1:" + server.apiPort();
        Await.atMost(Duration.ofSeconds(30))
                .until(
                        "the pipeline to publish up-a's one proxy",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .upstreams(),
                        ups -> ups.contains("up-a"));
        browser = HeadlessChromium.start();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {browser, server, proxy, origin}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
        http.close();
    }

    @RegisterExtension
    final TestWatcher onFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (browser != null) {
                browser.screenshot("failed-" + context.getRequiredTestMethod().getName());
            }
        }
    };

    @BeforeEach
    void signedOut() {
        browser.driver.manage().window().setSize(new Dimension(1440, 1000));
        browser.driver.get(base + "/console/");
        js("sessionStorage.clear();");
        browser.driver.navigate().refresh();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
    }

    @AfterEach
    void noJavaScriptErrors() {
        assertEquals(List.of(), browser.jsErrors(), "JavaScript errors in the browser's console");
    }

    // ---- providers ------------------------------------------------------------------------------------

    @Test
    void providersAreCreatedEditedAndDeletedAndADeleteTheApiRefusesIsShownInWords() {
        signIn(TOKEN);
        openManage("providers");

        // the form's own check: nothing is sent
        countFetches();
        type("mg-pv-name", "bad name");
        byId("mg-pv-save").click();
        assertEquals(
                "providers[].name: 'bad name' is not a valid name (letters, digits, '.', '_', '-'; at most 64,"
                        + " starting with a letter or digit)",
                error("mg-pv-form", "name"));
        assertEquals("providers[bad name].type: is required", error("mg-pv-form", "type"));
        type("mg-pv-name", "vendor-x");
        type("mg-pv-type", "http_json_feed");
        type("mg-pv-url", "https://feed.example/list?apikey=" + KEY + "&country={country}");
        type("mg-pv-cref", "-starts-with-a-dash");
        type("mg-pv-timeout", "ten seconds");
        byId("mg-pv-save").click();
        assertTrue(error("mg-pv-form", "credentialRef").contains("is not valid (1 to 128 letters"));
        assertEquals(
                "providers[vendor-x].timeout: 'ten seconds' is not a duration (write e.g. 30s, 10m, 24h)",
                error("mg-pv-form", "timeout"));
        assertEquals(0L, fetches(), "a value the form refuses is never sent");

        // create
        type("mg-pv-cref", "vendor-x");
        type("mg-pv-timeout", "15s");
        byId("mg-pv-save").click();
        awaitItem("provider", "vendor-x");
        Map<String, Object> created = admin("/providers/vendor-x");
        assertEquals("https://feed.example/list?apikey=***&country={country}", created.get("url"));
        assertEquals("vendor-x", created.get("credentialRef"));
        assertEquals("15s", created.get("timeout"));
        assertTrue(itemText("provider", "vendor-x").contains("apikey=***"));
        assertFalse(browser.driver.getPageSource().contains(KEY), "the API key is not on the page");

        // edit: the URL comes back masked; saving it unchanged keeps the stored key
        clickAction("provider", "vendor-x", "edit");
        assertEquals(
                "https://feed.example/list?apikey=***&country={country}",
                byId("mg-pv-url").getAttribute("value"));
        assertFalse(byId("mg-pv-name").isEnabled(), "a name cannot change");
        type("mg-pv-timeout", "20s");
        type("mg-pv-labels", "type=residential, country=US");
        byId("mg-pv-save").click();
        browser.waiting(20).until(d -> "20s".equals(admin("/providers/vendor-x").get("timeout")));
        Map<String, Object> edited = admin("/providers/vendor-x");
        assertEquals(Map.of("type", "residential", "country", "US"), edited.get("labels"));
        assertEquals("https://feed.example/list?apikey=***&country={country}", edited.get("url"));
        // the stored URL still has its key: a masked URL is accepted only when the stored one has the value
        HttpResponse<String> again = send(
                "PUT",
                "/providers/vendor-x",
                "{\"type\": \"http_json_feed\", \"url\": \"https://feed.example/list?apikey=***&country={country}\"}");
        assertEquals(200, again.statusCode(), again.body());

        // a delete the API refuses: the confirmation names the upstream, the 409 is shown in words
        clickAction("provider", "lab", "delete");
        browser.waiting(20).until(d -> byId("mg-confirm").isDisplayed());
        assertEquals(
                "Delete provider 'lab'? It is used by upstream 'up-a': the server refuses the delete while that"
                        + " upstream refers to it.",
                byId("mg-confirm-text").getText());
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> byId("mg-refused").isDisplayed());
        assertEquals(
                "The server refused to delete provider 'lab' (409 conflict): provider 'lab' is used by upstream"
                        + " 'up-a'; change or delete that upstream first.",
                byId("mg-refused").getText());
        assertFalse(byId("mg-confirm").isDisplayed());
        assertEquals(200, send("GET", "/providers/lab", null).statusCode(), "still there");
        browser.screenshot("manage-provider-409");

        // delete
        clickAction("provider", "vendor-x", "delete");
        assertEquals(
                "Delete provider 'vendor-x'? No other entity refers to it.",
                byId("mg-confirm-text").getText());
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> count("#mg-pv-list li[data-name='vendor-x']") == 0);
        assertEquals(404, send("GET", "/providers/vendor-x", null).statusCode());
        assertFalse(byId("mg-refused").isDisplayed());
    }

    // ---- routings -------------------------------------------------------------------------------------

    @Test
    void routingsAreCreatedEditedMovedAndDeleted() {
        signIn(TOKEN);
        openManage("routings");

        countFetches();
        type("mg-rt-name", "shop");
        new Select(byId("mg-rt-strategy")).selectByVisibleText("sequential");
        type("mg-rt-upstreams", "up-a");
        type("mg-rt-ports", "443, 99999");
        type("mg-rt-rattempts", "11");
        byId("mg-rt-save").click();
        assertEquals(
                "routings[shop].upstreams: a sequential routing needs at least two upstreams, in order",
                error("mg-rt-form", "upstreams"));
        assertEquals("routings[shop].match.ports[1]: '99999' is not a port (1..65535)", error("mg-rt-form", "ports"));
        assertEquals(
                "routings[shop].retry.maxAttempts: must be a whole number from 1 to 10",
                error("mg-rt-form", "retryMaxAttempts"));
        assertEquals(0L, fetches(), "a value the form refuses is never sent");

        // create, first in match order
        new Select(byId("mg-rt-strategy")).selectByVisibleText("leastInFlight");
        type("mg-rt-ports", "443");
        type("mg-rt-hosts", "*.shop.example, shop.example");
        type("mg-rt-rattempts", "3");
        type("mg-rt-rbudget", "30");
        type("mg-rt-position", "1");
        byId("mg-rt-sticky").click();
        type("mg-rt-slifetime", "5m");
        byId("mg-rt-save").click();
        awaitItem("routing", "shop");
        Map<String, Object> shop = admin("/routings/shop");
        assertEquals(0, ((Number) shop.get("position")).intValue());
        assertEquals("leastInFlight", shop.get("strategy"));
        assertEquals(List.of("up-a"), shop.get("upstreams"));
        Map<?, ?> match = (Map<?, ?>) shop.get("match");
        assertEquals(List.of("*.shop.example", "shop.example"), match.get("hosts"));
        assertEquals(List.of(443), numbers(match.get("ports")));
        Map<?, ?> sticky = (Map<?, ?>) shop.get("sticky");
        assertEquals(true, sticky.get("enabled"));
        assertEquals("5m", sticky.get("lifetime"));
        Map<?, ?> retry = (Map<?, ?>) shop.get("retry");
        assertEquals(3, ((Number) retry.get("maxAttempts")).intValue());
        assertEquals(30, ((Number) retry.get("budgetPercent")).intValue());

        // edit: wait when no candidate; sticky off
        clickAction("routing", "shop", "edit");
        assertEquals("*.shop.example, shop.example", byId("mg-rt-hosts").getAttribute("value"));
        assertTrue(byId("mg-rt-sticky").isSelected());
        new Select(byId("mg-rt-onnc")).selectByVisibleText("wait");
        type("mg-rt-wait", "2s");
        byId("mg-rt-sticky").click();
        byId("mg-rt-save").click();
        browser.waiting(20).until(d -> "wait".equals(admin("/routings/shop").get("onNoCandidate")));
        Map<String, Object> edited = admin("/routings/shop");
        assertEquals("2s", edited.get("waitTimeout"));
        assertNull(edited.get("sticky"), "sticky off");
        assertEquals(List.of("*.shop.example", "shop.example"), ((Map<?, ?>) edited.get("match")).get("hosts"));

        // move it below default
        browser.waiting(20).until(d -> count("#mg-rt-list li[data-name='shop'] button[data-action='down']") == 1);
        clickAction("routing", "shop", "down");
        browser.waiting(20).until(d -> ((Number) admin("/routings/shop").get("position")).intValue() == 1);
        browser.waiting(20).until(d -> itemText("routing", "shop").contains("#2"));

        // delete
        clickAction("routing", "shop", "delete");
        assertEquals(
                "Delete routing 'shop'? No other entity refers to it.",
                byId("mg-confirm-text").getText());
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> count("#mg-rt-list li[data-name='shop']") == 0);
        assertEquals(404, send("GET", "/routings/shop", null).statusCode());
    }

    // ---- clients --------------------------------------------------------------------------------------

    @Test
    void aClientGetsASecretShownOnceThatWorksAtTheGatewayUntilRotated() {
        signIn(TOKEN);
        openManage("clients");

        countFetches();
        type("mg-cl-name", "carol smith");
        type("mg-cl-rps", "-1");
        byId("mg-cl-save").click();
        assertEquals(
                "clients[].name: 'carol smith' is not a valid name (letters, digits, '.', '_', '-'; at most 64,"
                        + " starting with a letter or digit)",
                error("mg-cl-form", "name"));
        assertEquals(
                "clients[carol smith].rateLimit.rps: must be a number from 0 to 1000000", error("mg-cl-form", "rps"));
        assertEquals(0L, fetches(), "a value the form refuses is never sent");

        // create: the secret (and token) generated in the browser, shown once
        type("mg-cl-name", "carol");
        type("mg-cl-rps", "50");
        byId("mg-cl-withtoken").click();
        byId("mg-cl-save").click();
        browser.waiting(20).until(d -> byId("mg-secret").isDisplayed());
        String secret = byId("mg-secret-value").getText().strip();
        String token = byId("mg-secret-token").getText().strip();
        assertTrue(secret.matches("[A-Za-z0-9_-]{43}"), secret);
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        assertNotEquals(secret, token);
        awaitItem("client", "carol");
        Map<String, Object> carol = admin("/clients/carol");
        assertEquals(true, carol.get("hasSecret"));
        assertEquals(true, carol.get("hasToken"));
        assertEquals(50.0, ((Number) ((Map<?, ?>) carol.get("rateLimit")).get("rps")).doubleValue());
        assertFalse(String.valueOf(js("return JSON.stringify(sessionStorage)")).contains(secret), "never stored");
        assertFalse(String.valueOf(js("return JSON.stringify(localStorage)")).contains(secret), "never stored");
        browser.screenshot("manage-client-secret");

        // it works for a gateway request: through the pool's proxy to the origin
        awaitGateway("carol", secret, 200);
        assertEquals(407, gatewayGet("carol", secret + "x"), "a wrong secret is refused");

        // dismissed: gone from the page
        byId("mg-secret-dismiss").click();
        assertFalse(byId("mg-secret").isDisplayed());
        assertFalse(browser.driver.getPageSource().contains(secret), "shown once only");

        // edit the quota: the secret stays
        clickAction("client", "carol", "edit");
        type("mg-cl-quota", "100");
        byId("mg-cl-save").click();
        browser.waiting(20)
                .until(d -> ((Number) ((Map<?, ?>) admin("/clients/carol").get("quota")).get("extractionsPerHour"))
                                .intValue()
                        == 100);
        assertEquals(200, gatewayGet("carol", secret), "an edit keeps the secret");

        // rotate: a new secret shown once; the old one stops working
        clickAction("client", "carol", "rotate");
        assertTrue(byId("mg-confirm-text").getText().contains("the old secret and token stop working at once"));
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> byId("mg-secret").isDisplayed());
        String rotated = byId("mg-secret-value").getText().strip();
        assertTrue(rotated.matches("[A-Za-z0-9_-]{43}"), rotated);
        assertNotEquals(secret, rotated);
        assertNotEquals(token, byId("mg-secret-token").getText().strip(), "the token is rotated too");
        awaitGateway("carol", secret, 407);
        assertEquals(200, gatewayGet("carol", rotated));

        // disable: no secret, no token; the gateway refuses
        clickAction("client", "carol", "disable");
        byId("mg-confirm-yes").click();
        browser.waiting(20)
                .until(d -> Boolean.FALSE.equals(admin("/clients/carol").get("hasSecret")));
        assertEquals(false, admin("/clients/carol").get("hasToken"));
        awaitGateway("carol", rotated, 407);
        browser.waiting(20).until(d -> itemText("client", "carol").contains("disabled"));

        // delete
        clickAction("client", "carol", "delete");
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> count("#mg-cl-list li[data-name='carol']") == 0);
        assertEquals(404, send("GET", "/clients/carol", null).statusCode());
    }

    // ---- credential refs ------------------------------------------------------------------------------

    /** Issue 34: the bytes of GET /v1/admin/traffic on the Clients tab and the Upstreams page, as the API counts them. */
    @Test
    void bytesPerClientAndPerUpstreamShowAsTheApiCountsThem() {
        // another test may have left a proxy with a credential ref that no longer resolves: wait for a good answer
        awaitGateway("keeper", "keeper-secret-0123456789", 200);
        Await.atMost(Duration.ofSeconds(20))
                .until("keeper's request counted", () -> traffic("clients", "client", "keeper")[2] > 0);
        signIn(TOKEN);
        openManage("clients");
        // the page and the API read the same counters; a render may precede a late count, so wait for agreement
        browser.waiting(30).until(d -> {
            long[] k = traffic("clients", "client", "keeper");
            js("renderManage(true);");
            return itemText("client", "keeper")
                    .contains("sent " + js("return bytesText(arguments[0]);", k[0]) + " · received "
                            + js("return bytesText(arguments[0]);", k[1]));
        });
        assertFalse(itemText("client", "keeper").contains("received 0 B"), itemText("client", "keeper"));
        js("document.body.dataset.rendered = ''; location.hash = 'upstreams';");
        browser.waiting(20).until(d -> "upstreams".equals(js("return document.body.dataset.rendered || ''")));
        browser.waiting(30).until(d -> {
            long[] u = traffic("upstreams", "upstream", "up-a");
            js("renderUpstreams(true);");
            return text("#up-table tr[data-upstream='up-a'] td[data-col='sent']")
                            .equals(js("return bytesText(arguments[0]);", u[0]))
                    && text("#up-table tr[data-upstream='up-a'] td[data-col='received']")
                            .equals(js("return bytesText(arguments[0]);", u[1]))
                    && u[1] > 0;
        });
        browser.screenshot("upstreams-traffic");
    }

    private String text(String css) {
        Object t = js("const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
        return ((String) t).strip();
    }

    /** {@code [bytesSent, bytesReceived, exchanges]} of one row of {@code GET /v1/admin/traffic}, zeros when absent. */
    @SuppressWarnings("unchecked")
    private static long[] traffic(String list, String key, String name) {
        for (Map<String, Object> row :
                (List<Map<String, Object>>) admin("/traffic").get(list)) {
            if (name.equals(row.get(key))) {
                return new long[] {
                    ((Number) row.get("bytesSent")).longValue(),
                    ((Number) row.get("bytesReceived")).longValue(),
                    ((Number) row.get("exchanges")).longValue()
                };
            }
        }
        return new long[3];
    }

    @Test
    void credentialRefsAreGivenToProvidersRenamedAndDeleted() {
        signIn(TOKEN);
        openManage("credentials");

        countFetches();
        type("mg-cr-name", "-bad");
        byId("mg-cr-save").click();
        assertEquals(
                "providers[].credentialRef: '-bad' is not valid (1 to 128 letters, digits, '.', '_', '-', starting"
                        + " with a letter or digit)",
                error("mg-cr-form", "ref"));
        assertTrue(error("mg-cr-form", "providers").startsWith("choose at least one provider"));
        assertEquals(0L, fetches(), "a value the form refuses is never sent");

        // create: given to provider lab
        type("mg-cr-name", "lab-ref");
        byId("mg-cr-p-lab").click();
        byId("mg-cr-save").click();
        awaitItem("credential", "lab-ref");
        assertEquals("lab-ref", admin("/providers/lab").get("credentialRef"));
        assertTrue(itemText("credential", "lab-ref").contains("provider 'lab'"));

        // edit: renamed
        clickAction("credential", "lab-ref", "edit");
        assertTrue(byId("mg-cr-p-lab").isSelected());
        type("mg-cr-name", "lab-ref-2");
        byId("mg-cr-save").click();
        awaitItem("credential", "lab-ref-2");
        assertEquals("lab-ref-2", admin("/providers/lab").get("credentialRef"));
        assertEquals(0, count("#mg-cr-list li[data-name='lab-ref']"));

        // delete: the confirmation names the provider; the provider loses the ref
        clickAction("credential", "lab-ref-2", "delete");
        assertTrue(
                byId("mg-confirm-text").getText().contains("provider 'lab'"),
                byId("mg-confirm-text").getText());
        byId("mg-confirm-yes").click();
        browser.waiting(20).until(d -> count("#mg-cr-list li[data-name='lab-ref-2']") == 0);
        assertNull(admin("/providers/lab").get("credentialRef"));
        assertEquals(200, send("GET", "/upstreams/up-a", null).statusCode(), "the upstream is untouched");
    }

    @Test
    void thePageFilesAreServedUnderTheStrictPolicyAndLoadedByTheConsole() throws Exception {
        for (String file : List.of("console-manage.js", "console-manage.css")) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/console/" + file))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), file);
            assertEquals(
                    Console.CONTENT_SECURITY_POLICY,
                    r.headers().firstValue("Content-Security-Policy").orElse(""),
                    file);
            assertEquals(
                    "nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""), file);
            String type = r.headers().firstValue("Content-Type").orElse("");
            assertTrue(
                    file.endsWith(".css")
                            ? type.startsWith("text/css")
                            : type.startsWith("text/javascript") || type.startsWith("application/javascript"),
                    file + ": " + type);
            assertFalse(
                    java.util.regex.Pattern.compile(
                                    "innerHTML\\s*=|outerHTML|insertAdjacentHTML|document\\.write|eval\\(")
                            .matcher(r.body())
                            .find(),
                    file + " never writes HTML from data");
        }
        // the browser ran the script under that policy: the page is registered and its tabs work
        signIn(TOKEN);
        openManage("upstreams");
        awaitItem("upstream", "up-a");
        assertTrue(itemText("upstream", "up-a").contains("used by routing 'default'"), itemText("upstream", "up-a"));
    }

    // ---- viewer, phone --------------------------------------------------------------------------------

    @Test
    void aViewerSeesNoWriteAction() {
        HttpResponse<String> r = send("POST", "/operators", "{\"name\": \"vic\", \"role\": \"viewer\"}");
        assertEquals(201, r.statusCode(), r.body());
        send("POST", "/clients", "{\"name\": \"dora\", \"secret\": \"dora-secret-123456\"}");
        try {
            signIn((String) JsonTree.parseObject(r.body()).get("token"));
            openManage("providers");
            for (String tab : List.of("providers", "upstreams", "routings", "clients", "credentials")) {
                tab(tab);
                assertEquals(0, count("#page-manage button[data-action]"), tab + ": no write button");
                for (WebElement form : browser.driver.findElements(By.cssSelector("#page-manage form"))) {
                    assertFalse(form.isDisplayed(), tab + ": no form");
                }
            }
            tab("clients");
            assertEquals(1, count("#mg-cl-list li[data-name='dora']"), "reading stays possible");
            tab("providers");
            assertEquals(1, count("#mg-pv-list li[data-name='lab']"));
        } finally {
            send("DELETE", "/clients/dora", null);
            send("DELETE", "/operators/vic", null);
        }
    }

    /** Issue 37 item 17: a 401 (here: the operator's token revoked) signs out but keeps the half-typed form. */
    @Test
    void aRefusedTokenKeepsAHalfTypedForm() {
        HttpResponse<String> r = send("POST", "/operators", "{\"name\": \"hal\", \"role\": \"admin\"}");
        assertEquals(201, r.statusCode(), r.body());
        try {
            signIn((String) JsonTree.parseObject(r.body()).get("token"));
            openManage("providers");
            type("mg-pv-name", "half-typed");
            assertEquals(204, send("DELETE", "/operators/hal", null).statusCode());
            js("renderManage(true);"); // the page's next call: answered 401
            browser.waiting(20).until(d -> byId("login").isDisplayed());
            assertTrue(
                    byId("login-error").getText().contains("401"),
                    byId("login-error").getText());
            signInBackToManage();
            assertEquals("half-typed", byId("mg-pv-name").getAttribute("value"), "the typing survived the 401");

            byId("logout").click(); // an operator's own sign-out clears it
            browser.waiting(20).until(d -> byId("login").isDisplayed());
            signInBackToManage();
            assertEquals("", byId("mg-pv-name").getAttribute("value"));
        } finally {
            send("DELETE", "/operators/hal", null);
        }
    }

    /** Signs in again on the page the console was on (#manage): the sign-in renders it. */
    private void signInBackToManage() {
        js("document.body.dataset.rendered = '';");
        signIn(TOKEN);
        browser.waiting(20).until(d -> "manage".equals(js("return document.body.dataset.rendered || ''")));
        tab("providers");
    }

    @Test
    void nothingScrollsSidewaysOnAPhone() {
        String longName = "p" + "x".repeat(63);
        String longUrl =
                "https://" + "very-long-host-name-".repeat(8) + "feed.example/" + "path/".repeat(20) + "?apikey=" + KEY;
        HttpResponse<String> c = send(
                "POST",
                "/providers",
                "{\"name\": \"" + longName + "\", \"type\": \"http_json_feed\", \"url\": \"" + longUrl
                        + "\", \"credentialRef\": \"" + "r".repeat(128) + "\"}");
        assertEquals(201, c.statusCode(), c.body());
        try {
            browser.driver.manage().window().setSize(new Dimension(390, 844));
            // the viewport, not the window, is what a phone has
            Number inner = (Number) js("return window.innerWidth");
            assertTrue(inner.intValue() <= 390, "viewport " + inner);
            signIn(TOKEN);
            openManage("providers");
            awaitItem("provider", longName);
            for (String tab : List.of("providers", "upstreams", "routings", "clients", "credentials")) {
                tab(tab);
                Number width = (Number) js("return document.documentElement.scrollWidth");
                assertTrue(
                        width.intValue() <= inner.intValue(),
                        tab + ": the page is " + width + " px wide in a " + inner + " px viewport; too wide: "
                                + js(WIDER_THAN_VIEWPORT));
                browser.screenshot("manage-phone-" + tab);
            }
        } finally {
            assertEquals(204, send("DELETE", "/providers/" + longName, null).statusCode());
        }
    }

    /** The outermost elements reaching past the viewport's right edge (the test's message when the page scrolls). */
    static final String WIDER_THAN_VIEWPORT = "const w = document.documentElement.clientWidth; const out = [];"
            + " const over = (e) => e && e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > w + 0.5;"
            + " for (const e of document.querySelectorAll('body *')) { if (over(e) && !over(e.parentElement)) {"
            + " out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '')"
            + " + ' (right edge ' + Math.round(e.getBoundingClientRect().right) + ')'); } }"
            + " return out.slice(0, 8).join(', ') || 'nothing visible';";

    // ---- helpers --------------------------------------------------------------------------------------

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, args);
    }

    private WebElement byId(String id) {
        return browser.driver.findElement(By.id(id));
    }

    private int count(String css) {
        return browser.driver.findElements(By.cssSelector(css)).size();
    }

    private void signIn(String token) {
        byId("token").clear();
        byId("token").sendKeys(token);
        byId("login-submit").click();
        browser.waiting(20)
                .until(d -> byId("whoami").isDisplayed() && !byId("login").isDisplayed());
    }

    /**
     * Opens the page by its address ({@code #manage}), as its nav link does: on a phone the navigation may be
     * collapsed behind a menu button, and the address works either way.
     */
    private void openManage(String tab) {
        js("document.body.dataset.rendered = ''; location.hash = 'manage';");
        browser.waiting(20).until(d -> "manage".equals(js("return document.body.dataset.rendered || ''")));
        assertEquals(1, count("#nav a[data-page='manage']"), "the navigation links the page");
        tab(tab);
    }

    private void tab(String tab) {
        browser.driver
                .findElement(By.cssSelector("#mg-tabs button[data-tab='" + tab + "']"))
                .click();
        browser.waiting(20)
                .until(d -> browser.driver
                        .findElement(By.cssSelector("#page-manage .mg-panel[data-panel='" + tab + "']"))
                        .isDisplayed());
    }

    private void type(String id, String text) {
        WebElement e = byId(id);
        e.clear();
        e.sendKeys(text);
    }

    /** The message next to a field of a form (waits for it). */
    private String error(String form, String field) {
        By slot = By.cssSelector("#" + form + " [data-error-for='" + field + "']");
        browser.waiting(20)
                .until(d -> !browser.driver.findElement(slot).getText().isBlank());
        return browser.driver.findElement(slot).getText().strip();
    }

    /** Counts the page's fetch calls from now on (a form's own check must not send anything). */
    private void countFetches() {
        js("if (!window.__mgFetch) { window.__mgFetch = window.fetch;"
                + " window.fetch = (...a) => { window.__mgFetches++; return window.__mgFetch(...a); }; }"
                + " window.__mgFetches = 0;");
    }

    private long fetches() {
        return ((Number) js("return window.__mgFetches")).longValue();
    }

    private WebElement item(String kind, String name) {
        return browser.driver.findElement(
                By.cssSelector("#page-manage li[data-entity='" + kind + "'][data-name='" + name + "']"));
    }

    /**
     * Clicks the {@code action} button of the item {@code name} of {@code kind}. The list is drawn
     * again whenever it reloads (after a save, an API change, the periodic refresh), so an element
     * found a moment before may be gone by the click: it is found again until the click lands.
     */
    private void clickAction(String kind, String name, String action) {
        browser.waiting(20).ignoring(StaleElementReferenceException.class).until(d -> {
            item(kind, name)
                    .findElement(By.cssSelector("button[data-action='" + action + "']"))
                    .click();
            return true;
        });
    }

    private String itemText(String kind, String name) {
        return item(kind, name).getText();
    }

    private void awaitItem(String kind, String name) {
        browser.waiting(20)
                .until(d -> count("#page-manage li[data-entity='" + kind + "'][data-name='" + name + "']") == 1);
    }

    private static List<Integer> numbers(Object list) {
        return ((List<?>) list).stream().map(n -> ((Number) n).intValue()).toList();
    }

    private static Map<String, Object> admin(String path) {
        HttpResponse<String> r = send("GET", path, null);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JsonTree.parseObject(r.body());
    }

    private static HttpResponse<String> send(String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/admin" + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + TOKEN)
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits (bounded) until a gateway request as {@code user} answers {@code status}. */
    private static void awaitGateway(String user, String secret, int status) {
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "a gateway request as " + user + " to answer " + status,
                        () -> gatewayGet(user, secret),
                        s -> s == status);
    }

    /**
     * A plain-HTTP request through the gateway to the origin's {@code /echo}, authenticated with
     * {@code Proxy-Authorization: Basic user:secret}; the status it answers.
     */
    static int gatewayGet(String user, String secret) {
        String target = "127.0.0.1:" + origin.port();
        String auth = Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
        try (Socket s = new Socket("127.0.0.1", server.gatewayPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET http://" + target + "/echo HTTP/1.1\r\nHost: " + target + "\r\nProxy-Authorization: Basic "
                            + auth + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) != -1 && b != '\n') {
                line.append((char) b);
            }
            String[] parts = line.toString().split(" ");
            if (parts.length < 2) {
                throw new AssertionError("no status line from the gateway: '" + line + "'");
            }
            return Integer.parseInt(parts[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
