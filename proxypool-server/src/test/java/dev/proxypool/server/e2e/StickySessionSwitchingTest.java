package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.proxypool.core.health.HealthState;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Faults;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session switching through the real gateway and two loopback upstream proxies
 * (docs/design.md#sticky-sessions, S8): a session stays on its proxy through two failed requests
 * (each retried on the other proxy, which serves it without taking the session), moves on the third,
 * and moves at once when its proxy is disabled. Passive health is set not to cool the failing proxy,
 * so what moves the session is its own record, not the proxy leaving the pool.
 */
class StickySessionSwitchingTest {

    private static final String ALICE = "Basic " + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes());

    @TempDir
    static Path dir;

    private static FakeOrigin origin;
    private static FakeHttpProxy a;
    private static FakeHttpProxy b;
    private static ProxyPoolServer server;

    @BeforeAll
    static void start() throws Exception {
        origin = FakeOrigin.start();
        a = FakeHttpProxy.start();
        b = FakeHttpProxy.start();
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + a.port() + ", \"protocol\": \"http\"}\n"
                        + "{\"host\": \"127.0.0.1\", \"port\": " + b.port() + ", \"protocol\": \"http\"}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                security: { allowDestinations: ["127.0.0.0/8"] }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false }, passive: { consecutiveFailures: 1000, errorRate: 1 } }
                routings:
                  - { name: sessions, sticky: { enabled: true }, retry: { maxAttempts: 2, budgetPercent: 100 } }
                """);
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {server, origin, a, b}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static HttpResponse<String> get(String session) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(origin.uri("/echo"))
                .timeout(Duration.ofSeconds(15))
                .header("Proxy-Authorization", ALICE)
                .header("X-ProxyPool-Session", session)
                .build();
        try (HttpClient c = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
            HttpResponse<String> response = c.send(r, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.headers() + " " + response.body());
            return response;
        }
    }

    private static String proxy(HttpResponse<?> r) {
        return r.headers().firstValue("X-ProxyPool-Proxy").orElseThrow();
    }

    private static int attempts(HttpResponse<?> r) {
        return Integer.parseInt(r.headers().firstValue("X-ProxyPool-Attempts").orElseThrow());
    }

    /** Makes {@code p} reset every new connection at once (a failure before any response byte: retried). */
    private static void breakProxy(FakeHttpProxy p, boolean broken) {
        p.faults(broken ? Faults.none().resetAfter(0) : Faults.NONE);
        server.gatewayEngine().closeIdle(); // no pooled link may hide the change
    }

    @Test
    void aSessionStaysThroughTwoFailuresAndMovesOnTheThird() throws Exception {
        long aBefore = a.forwardedRequests();
        HttpResponse<String> first = get("s1");
        String bound = proxy(first);
        FakeHttpProxy boundFake = a.forwardedRequests() > aBefore ? a : b;
        FakeHttpProxy otherFake = boundFake == a ? b : a;

        String other = null;
        breakProxy(boundFake, true);
        try {
            for (int failure = 1; failure <= 3; failure++) {
                long tried = boundFake.acceptedConnections();
                HttpResponse<String> retried = get("s1");
                assertEquals(2, attempts(retried), "failure " + failure + ": the bound proxy was still tried first");
                assertEquals(tried + 1, boundFake.acceptedConnections(), "failure " + failure);
                other = proxy(retried);
                assertNotEquals(bound, other, "the retry was served by the other proxy");
            }
        } finally {
            breakProxy(boundFake, false);
        }
        long otherBefore = otherFake.forwardedRequests();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> moved = get("s1");
            assertEquals(other, proxy(moved), "the third failure moved the session");
            assertEquals(1, attempts(moved));
        }
        assertEquals(otherBefore + 3, otherFake.forwardedRequests());
        PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
        assertEquals(
                HealthState.HEALTHY,
                engine.runtime(bound).orElseThrow().health().state(),
                "the old proxy is still healthy: the session moved on its own record");
    }

    @Test
    void aSessionMovesAtOnceWhenItsProxyIsDisabled() throws Exception {
        String bound = proxy(get("s2"));
        assertEquals(bound, proxy(get("s2")));
        PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
        engine.runtime(bound)
                .orElseThrow()
                .health()
                .disable("test", engine.ticker().read());
        try {
            HttpResponse<String> moved = get("s2");
            assertNotEquals(bound, proxy(moved), "no failure needed: the proxy left the pool");
            assertEquals(1, attempts(moved));
            assertEquals(proxy(moved), proxy(get("s2")), "and the session stays on its new proxy");
        } finally {
            engine.runtime(bound)
                    .orElseThrow()
                    .health()
                    .enable("test", engine.ticker().read());
        }
    }
}
