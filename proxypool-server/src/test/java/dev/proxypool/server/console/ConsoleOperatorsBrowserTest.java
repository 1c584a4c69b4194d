package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.persistence.JsonTree;
import java.net.http.HttpResponse;
import java.nio.file.Path;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Named operators and secrets in provider URLs, in a real browser (headless Chromium) against a real
 * server: a viewer sees no write action and the API refuses the write it tries anyway; an admin
 * creates an operator, its token is shown once and works, the audit page names the operator, and a
 * revoked token is refused; a provider URL with {@code ?apikey=} is never on the page in clear. The
 * browser's console log holds no JavaScript error after any test.
 */
@Tag("slow")
class ConsoleOperatorsBrowserTest {

    static final String KEY = "apikey-canary-7f3a9c21e5";

    @TempDir
    static Path dir;

    static ConsoleServer server;
    static HeadlessChromium browser;

    @BeforeAll
    static void start() {
        server = ConsoleServer.start(dir, 30);
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
        browser.driver.get(server.consoleUrl());
        js("sessionStorage.clear();");
        browser.driver.navigate().refresh();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
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

    private void signIn(String token) {
        byId("token").clear();
        byId("token").sendKeys(token);
        byId("login-submit").click();
        // the page of the address bar's hash (Overview after a fresh load)
        browser.waiting(20)
                .until(d -> byId("whoami").isDisplayed() && !byId("login").isDisplayed());
    }

    private void open(String page) {
        browser.driver
                .findElement(By.cssSelector("#nav a[data-page='" + page + "']"))
                .click();
        browser.waiting(20).until(d -> page.equals(js("return document.body.dataset.rendered || ''")));
    }

    private int count(String css) {
        return browser.driver.findElements(By.cssSelector(css)).size();
    }

    /** A new operator through the API (as the bootstrap admin); its token. */
    private static String operator(String name, String role) {
        HttpResponse<String> r =
                server.send("POST", "/operators", "{\"name\": \"" + name + "\", \"role\": \"" + role + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return (String) JsonTree.parseObject(r.body()).get("token");
    }

    @Test
    void aViewerSeesNoWriteActionAndTheApiRefusesTheWriteItTriesAnyway() {
        String token = operator("vera", "viewer");
        signIn(token);
        assertEquals("vera · viewer", byId("whoami").getText());

        open("upstreams");
        browser.waiting(20).until(d -> count("#up-table tr[data-upstream='up-a']") == 1);
        assertEquals(0, count("#page-upstreams button[data-action]"), "no Fetch now, Advance, Reset");
        assertEquals(0, count("#up-table a"), "no edit link");
        assertFalse(byId("up-form").isDisplayed(), "no upstream form");
        assertFalse(byId("up-form-title").isDisplayed());

        open("proxies");
        browser.waiting(20).until(d -> count("#px-table tbody tr[data-id]") > 0);
        assertEquals(0, count("#px-table button[data-action='disable']"));
        assertEquals(0, count("#px-table button[data-action='enable']"));
        assertEquals(0, count("#px-table button[data-action='reveal']"));
        assertTrue(count("#px-table button[data-action='history']") > 0, "reading stays possible");

        open("operators");
        assertEquals(0, count("#op-table button"), "no Revoke");
        assertFalse(byId("op-form").isDisplayed(), "no operator form");
        assertEquals(
                List.of("admin", "vera"),
                browser.driver.findElements(By.cssSelector("#op-table tr[data-operator]")).stream()
                        .map(r -> r.getAttribute("data-operator"))
                        .toList());
        browser.screenshot("operators-viewer");

        // the viewer's token used for a write from the page itself: the API answers 403, nothing changes
        String id = (String) ((List<?>) server.admin("/proxies?limit=1").get("proxies"))
                .stream().map(p -> ((Map<?, ?>) p).get("id")).findFirst().orElseThrow();
        Object answer = ((JavascriptExecutor) browser.driver)
                .executeAsyncScript(
                        "const done = arguments[arguments.length - 1];"
                                + "fetch('/v1/admin/proxies/' + arguments[0] + '/disable', {method: 'POST',"
                                + " headers: {'Authorization': 'Bearer ' + sessionStorage.getItem('proxypool.adminToken')}})"
                                + ".then(r => r.json().then(b => done(r.status + ' ' + b.error)))"
                                + ".catch(e => done('failed ' + e));",
                        id);
        assertEquals("403 forbidden", answer);
        assertEquals("available", server.admin("/proxies/" + id).get("state"));
        assertEquals(204, server.send("DELETE", "/operators/vera", null).statusCode());
    }

    @Test
    void anAdminCreatesAnOperatorWhoseTokenIsShownOnceAndTheAuditNamesIt() {
        signIn(ConsoleServer.TOKEN);
        assertEquals("admin · admin", byId("whoami").getText());
        open("operators");
        // the form checks the name before sending
        byId("op-name").sendKeys("bad name");
        byId("op-save").click();
        browser.waiting(20)
                .until(d -> !byId("op-form")
                        .findElement(By.cssSelector("[data-error-for='name']"))
                        .getText()
                        .isBlank());
        byId("op-name").clear();
        byId("op-name").sendKeys("otto");
        new org.openqa.selenium.support.ui.Select(byId("op-role")).selectByValue("admin");
        byId("op-save").click();
        browser.waiting(20).until(d -> byId("op-token").isDisplayed());
        String token = byId("op-token-value").getText().strip();
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        browser.waiting(20).until(d -> count("#op-table tr[data-operator='otto']") == 1);
        browser.screenshot("operators-created");

        // otto signs in with it and acts: the audit page names otto
        byId("logout").click();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        signIn(token);
        assertEquals("otto · admin", byId("whoami").getText());
        open("upstreams");
        browser.driver
                .findElement(By.cssSelector("#seq-table tr[data-routing='seq'] button[data-action='advance']"))
                .click();
        browser.waiting(20)
                .until(d -> ((Number) server.admin("/routings/seq/sequential").get("index")).intValue() == 1);
        open("audit");
        WebElement first = browser.driver.findElement(By.cssSelector("#au-table tbody tr:first-child"));
        assertEquals("routing.sequential.advance", first.getAttribute("data-action"));
        assertEquals(
                "otto", first.findElement(By.cssSelector("td:nth-child(2)")).getText());
        WebElement created = browser.driver.findElement(By.cssSelector("#au-table tr[data-action='operator.create']"));
        assertEquals(
                "admin", created.findElement(By.cssSelector("td:nth-child(2)")).getText());
        assertFalse(browser.driver.getPageSource().contains(token), "the token is not in the audit log");
        browser.screenshot("audit-operator");
        server.send("POST", "/routings/seq/sequential", "{\"action\": \"reset\"}");

        // the bootstrap admin revokes otto (two clicks): its token stops working
        byId("logout").click();
        browser.waiting(20).until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        signIn(ConsoleServer.TOKEN);
        open("operators");
        assertFalse(browser.driver.getPageSource().contains(token), "shown once only");
        WebElement revoke = browser.driver.findElement(
                By.cssSelector("#op-table tr[data-operator='otto'] button[data-action='revoke']"));
        revoke.click();
        assertTrue(revoke.getText().contains("otto"), revoke.getText());
        revoke.click();
        browser.waiting(20).until(d -> count("#op-table tr[data-operator='otto']") == 0);
        assertEquals(401, server.sendAs(token, "GET", "/whoami").statusCode(), "a revoked operator's token is refused");
    }

    @Test
    void aProviderUrlsApiKeyIsNeverShownInClear() {
        String url = "https://acct:pa55w0rd@feed.example/v1/list?apikey=" + KEY + "&country={country}";
        HttpResponse<String> c = server.send(
                "POST",
                "/providers",
                "{\"name\": \"vendor-k\", \"type\": \"http_json_feed\", \"url\": \"" + url + "\"}");
        assertEquals(201, c.statusCode(), c.body());
        try {
            signIn(ConsoleServer.TOKEN);
            open("upstreams");
            browser.waiting(20).until(d -> count("#pv-table tr[data-provider='vendor-k']") == 1);
            assertEquals(
                    "https://***@feed.example/v1/list?apikey=***&country={country}",
                    browser.driver
                            .findElement(By.cssSelector("#pv-table tr[data-provider='vendor-k'] td[data-col='source']"))
                            .getText());
            assertNoSecret();
            browser.screenshot("providers-masked");
            open("audit");
            browser.waiting(20).until(d -> count("#au-table tr[data-action='provider.create']") > 0);
            assertTrue(browser.driver.getPageSource().contains("apikey=***"));
            assertNoSecret();
        } finally {
            assertEquals(204, server.send("DELETE", "/providers/vendor-k", null).statusCode());
        }
    }

    private void assertNoSecret() {
        String page = browser.driver.getPageSource();
        assertFalse(page.contains(KEY), "the API key is on the page");
        assertFalse(page.contains("pa55w0rd"), "the password is on the page");
        Object text = js("return document.body.innerText");
        assertFalse(String.valueOf(text).contains(KEY));
    }
}
