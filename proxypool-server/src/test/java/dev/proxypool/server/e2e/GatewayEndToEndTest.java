package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeSocks4Proxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.TestPorts;
import dev.proxypool.testkit.TestTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole gateway with real clients: ProxyPoolServer on loopback, fake upstream proxies of every
 * protocol from the test kit, a plain and a TLS origin.
 */
@Tag("slow")
class GatewayEndToEndTest {

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeOrigin tlsOrigin;
    static FakeHttpProxy http1;
    static FakeHttpProxy http2;
    static FakeHttpProxy httpAuth;
    static FakeSocks4Proxy socks4;
    static FakeSocks5Proxy socks5;
    static FakeSocks5Proxy socks5Auth;
    static FakeHttpProxy single;
    static FakeHttpProxy banProxy;
    static FakeHttpProxy noRetryGood;
    static int refusedNoRetry;
    static ProxyPoolServer server;
    static int refused;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        tlsOrigin = FakeOrigin.builder().tls().start();
        http1 = FakeHttpProxy.start();
        http2 = FakeHttpProxy.start();
        httpAuth =
                FakeHttpProxy.builder().basicAuth("vendor-user", "vendor-pass").start();
        socks4 = FakeSocks4Proxy.builder().start();
        socks5 = FakeSocks5Proxy.start();
        socks5Auth = FakeSocks5Proxy.builder().userPass("s5user", "s5pass").start();
        single = FakeHttpProxy.start();
        banProxy = FakeHttpProxy.start();
        noRetryGood = FakeHttpProxy.start();
        refused = TestPorts.closedPort();
        refusedNoRetry = TestPorts.closedPort();
        Files.writeString(dir.resolve("credentials.properties"), """
                vendor.username=vendor-user
                vendor.password=vendor-pass
                s5.username=s5user
                s5.password=s5pass
                """);
        StringBuilder inv = new StringBuilder();
        inv.append(line(http1.port(), "http", "", "plain", 50));
        inv.append(line(http2.port(), "http", "", "plain", 50));
        inv.append(line(httpAuth.port(), "http", "vendor", "auth", 50));
        inv.append(line(socks4.port(), "socks4", "", "socks4", 50));
        inv.append(line(socks5.port(), "socks5", "", "socks5", 50));
        inv.append(line(socks5Auth.port(), "socks5", "s5", "socks5auth", 50));
        inv.append(line(single.port(), "http", "", "single", 1));
        inv.append(line(refused, "http", "", "failover", 50));
        inv.append(line(http1.port(), "http", "", "failover-good", 50)
                .replace("\"host\": \"127.0.0.1\"", "\"host\": \"localhost\""));
        inv.append(line(banProxy.port(), "http", "", "ban403", 50));
        inv.append(line(noRetryGood.port(), "http", "", "noretry", 50));
        inv.append(line(refusedNoRetry, "http", "", "noretry", 50));
        Files.writeString(dir.resolve("inventory.jsonl"), inv.toString());
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                security: { allowDestinations: ["127.0.0.0/8", "localhost"], connectPorts: [443, %d] }
                credentials: { file: credentials.properties }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                routings:
                  - { name: auth, match: { headers: { X-Route: auth } }, filter: { labels: { kind: auth } } }
                  - { name: socks4, match: { headers: { X-Route: socks4 } }, filter: { labels: { kind: socks4 } } }
                  - { name: socks5, match: { headers: { X-Route: socks5 } }, filter: { labels: { kind: socks5 } } }
                  - { name: socks5auth, match: { headers: { X-Route: socks5auth } }, filter: { labels: { kind: socks5auth } } }
                  - { name: single, match: { headers: { X-Route: single } }, filter: { labels: { kind: single } } }
                  - { name: nothing, match: { headers: { X-Route: nothing } }, filter: { labels: { kind: none-such } } }
                  - { name: failover, match: { headers: { X-Route: failover } }, strategy: roundRobin,
                      filter: { labels: { group: failover } }, retry: { maxAttempts: 2 } }
                  - { name: ban403, match: { headers: { X-Route: ban403 } }, filter: { labels: { kind: ban403 } } }
                  - { name: noretry, match: { headers: { X-Route: noretry } }, filter: { labels: { kind: noretry } },
                      retry: { maxAttempts: 1 } }
                  - { name: sticky, match: { headers: { X-Route: sticky } }, filter: { labels: { kind: plain } },
                      sticky: { enabled: true } }
                  - { name: strict, match: { headers: { X-Route: strict } }, filter: { labels: { kind: plain } },
                      sticky: { enabled: true, onLost: strict } }
                  - { name: custom-session, match: { headers: { X-Route: custom-session } }, filter: { labels: { kind: plain } },
                      sticky: { enabled: true, header: X-Session } }
                  - { name: tls, match: { ports: [%d] }, filter: { labels: { kind: plain } } }
                  - { name: plain, filter: { labels: { kind: plain } } }
                """.formatted(tlsOrigin.port(), tlsOrigin.port()));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
    }

    private static String line(int port, String protocol, String credentialRef, String kind, int maxConcurrency) {
        String group = kind.startsWith("failover") ? "failover" : kind;
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"" + protocol + "\""
                + (credentialRef.isEmpty() ? "" : ", \"credentialRef\": \"" + credentialRef + "\"")
                + ", \"labels\": {\"kind\": \"" + kind + "\", \"group\": \"" + group + "\"}, \"maxConcurrency\": "
                + maxConcurrency + "}\n";
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {
            origin, tlsOrigin, http1, http2, httpAuth, socks4, socks5, socks5Auth, single, banProxy, noRetryGood
        }) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @AfterEach
    void capacityNeverLeaks() throws InterruptedException {
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "no gateway attempt and no capacity reservation in flight",
                        () -> "gateway attempts " + server.gatewayEngine().inFlight() + ", reservations "
                                + EmbeddedProxyPool.engineOf(server.pool()).inFlight(),
                        s -> s.equals("gateway attempts 0, reservations 0"));
    }

    /**
     * A JDK client through the gateway. For CONNECT the JDK sends proxy credentials only from an
     * Authenticator (and only with -Djdk.http.auth.tunneling.disabledSchemes= , set in the pom).
     */
    private static HttpClient client() {
        return HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .authenticator(new java.net.Authenticator() {
                    @Override
                    protected java.net.PasswordAuthentication getPasswordAuthentication() {
                        return getRequestorType() == RequestorType.PROXY
                                ? new java.net.PasswordAuthentication("alice", "alice-secret".toCharArray())
                                : null;
                    }
                })
                .sslContext(TestTls.clientContext())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static final String ALICE =
            "Basic " + java.util.Base64.getEncoder().encodeToString("alice:alice-secret".getBytes());

    private static HttpResponse<String> get(String route, URI uri, String... headers) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(15)).header("Proxy-Authorization", ALICE);
        if (route != null) {
            b.header("X-Route", route);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        // A fresh client per request, closed after it: its pooled tunnel must not outlive the test
        // (an open tunnel rightly holds the proxy's capacity).
        try (HttpClient c = client()) {
            return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static void assertExplained(HttpResponse<?> r, String routing) {
        String proxy = r.headers().firstValue("X-ProxyPool-Proxy").orElse("");
        assertTrue(proxy.startsWith("p-"), "opaque proxy id, got '" + proxy + "'");
        assertEquals(routing, r.headers().firstValue("X-ProxyPool-Routing").orElse(""));
        assertEquals("lab", r.headers().firstValue("X-ProxyPool-Upstream").orElse(""));
        assertTrue(r.headers().firstValue("X-ProxyPool-Attempts").isPresent());
        for (String h :
                List.of("X-ProxyPool-Proxy", "X-ProxyPool-Upstream", "X-ProxyPool-Routing", "X-ProxyPool-Attempts")) {
            String v = r.headers().firstValue(h).orElse("");
            assertFalse(v.contains("127.0.0.1") || v.contains("vendor-pass") || v.contains(":"), h + " leaks: " + v);
        }
    }

    @Test
    void plainHttpThroughAnHttpUpstreamWithExplainabilityHeaders() throws Exception {
        HttpResponse<String> r = get(null, origin.uri("/echo"));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"ip\""));
        assertFalse(r.body().toLowerCase().contains("x-proxypool-"), "control headers are not forwarded: " + r.body());
        assertFalse(r.body().contains("alice-secret"));
        assertExplained(r, "plain");
    }

    @Test
    void httpsThroughConnectToATlsOrigin() throws Exception {
        HttpResponse<String> r = get(null, tlsOrigin.uri("/echo"));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"ip\""));
    }

    @Test
    void proxyAuthIsRequired() throws Exception {
        HttpClient noAuth = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build();
        HttpResponse<String> r = noAuth.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(407, r.statusCode());
        assertTrue(r.headers().firstValue("Proxy-Authenticate").orElse("").startsWith("Basic"));
        HttpResponse<String> wrong = noAuth.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .timeout(Duration.ofSeconds(10))
                        .header(
                                "Proxy-Authorization",
                                "Basic " + java.util.Base64.getEncoder().encodeToString("alice:nope".getBytes()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(407, wrong.statusCode());
        noAuth.close();
    }

    @Test
    void everyUpstreamProtocolCarriesHttpAndHttps() throws Exception {
        for (String route : List.of("auth", "socks4", "socks5", "socks5auth")) {
            HttpResponse<String> plain = get(route, origin.uri("/echo"));
            assertEquals(200, plain.statusCode(), route + ": " + plain.body());
            assertExplained(plain, route);
            HttpResponse<String> tls = get(route, tlsOrigin.uri("/echo"));
            assertEquals(200, tls.statusCode(), route + " https: " + tls.body());
        }
        assertTrue(httpAuth.requestsWithCredentials() >= 1, "credentials injected from the credential store");
    }

    @Test
    void noCandidateIs503WithAReason() throws Exception {
        HttpResponse<String> r = get("nothing", origin.uri("/echo"));
        assertEquals(503, r.statusCode());
        assertEquals("no_candidate", r.headers().firstValue("X-ProxyPool-Error").orElse(""));
    }

    @Test
    void stickySessionsKeepTheirProxyAndStrictOnesFailWhenItIsLost() throws Exception {
        Set<String> s1 = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            s1.add(get("sticky", origin.uri("/echo"), "X-ProxyPool-Session", "s1")
                    .headers()
                    .firstValue("X-ProxyPool-Proxy")
                    .orElseThrow());
        }
        assertEquals(1, s1.size(), "same session, same proxy");
        String bound = s1.iterator().next();

        String strictBound = get("strict", origin.uri("/echo"), "X-ProxyPool-Session", "k1")
                .headers()
                .firstValue("X-ProxyPool-Proxy")
                .orElseThrow();
        EmbeddedProxyPool.engineOf(server.pool())
                .runtime(strictBound)
                .orElseThrow()
                .health()
                .disable(
                        "test",
                        EmbeddedProxyPool.engineOf(server.pool()).ticker().read());
        try {
            HttpResponse<String> lost = get("strict", origin.uri("/echo"), "X-ProxyPool-Session", "k1");
            assertEquals(502, lost.statusCode());
            assertEquals(
                    "session_lost",
                    lost.headers().firstValue("X-ProxyPool-Error").orElse(""));
            if (strictBound.equals(bound)) {
                String repinned = get("sticky", origin.uri("/echo"), "X-ProxyPool-Session", "s1")
                        .headers()
                        .firstValue("X-ProxyPool-Proxy")
                        .orElseThrow();
                assertNotEquals(bound, repinned, "repin moves a session off a cooled proxy");
            }
        } finally {
            EmbeddedProxyPool.engineOf(server.pool())
                    .runtime(strictBound)
                    .orElseThrow()
                    .health()
                    .enable(
                            "test",
                            EmbeddedProxyPool.engineOf(server.pool()).ticker().read());
        }
    }

    @Test
    void aCustomStickySessionHeaderBindsTheSessionAndIsNotForwarded() throws Exception {
        Set<String> proxies = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = get("custom-session", origin.uri("/echo"), "X-Session", "cs1", "X-Other", "kept");
            assertEquals(200, r.statusCode());
            String seen = r.body().toLowerCase(java.util.Locale.ROOT);
            assertFalse(seen.contains("x-session"), "the origin must not see the session header: " + r.body());
            assertTrue(seen.contains("x-other"), "other headers are forwarded: " + r.body());
            proxies.add(r.headers().firstValue("X-ProxyPool-Proxy").orElseThrow());
        }
        assertEquals(1, proxies.size(), "one session, one proxy: " + proxies);
    }

    @Test
    void aReportedBanExcludesTheProxyForThatDomainOnly() throws Exception {
        HttpResponse<String> first = get("single", origin.uri("/echo"));
        assertEquals(200, first.statusCode());
        String id = first.headers().firstValue("X-ProxyPool-Proxy").orElseThrow();
        HttpResponse<String> fb = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/feedback"))
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"proxy\": \"" + id + "\", \"domain\": \"127.0.0.1\", \"kind\": \"banned\"}"))
                                .header("Content-Type", "application/json")
                                .header("Authorization", "Bearer alice-token-0123456789")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(202, fb.statusCode(), fb.body());
        assertEquals(503, get("single", origin.uri("/echo")).statusCode(), "banned for 127.0.0.1");
        HttpResponse<String> other = get("single", URI.create("http://localhost:" + origin.port() + "/echo"));
        assertEquals(200, other.statusCode(), "still serves other destinations");
    }

    @Test
    void aRefusingUpstreamIsRetriedOnAnotherProxyAndCooled() throws Exception {
        var refusing = EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .filter(p -> p.port() == refused)
                .findFirst()
                .orElseThrow();
        var health = EmbeddedProxyPool.engineOf(server.pool())
                .runtime(refusing.id())
                .orElseThrow()
                .health();
        int requests = 0;
        while (health.state() != dev.proxypool.core.health.HealthState.COOLING && requests < 20) {
            HttpResponse<String> r = get("failover", origin.uri("/echo"));
            assertEquals(200, r.statusCode(), "GET retried on the other proxy within the retry budget");
            requests++;
        }
        assertEquals(
                dev.proxypool.core.health.HealthState.COOLING,
                health.state(),
                "cooled after " + requests + " requests");
        assertEquals("connection_refused", health.status().reason().code(), "cooled for the classified reason");
    }

    @Test
    void withoutRetriesAFailedAttemptIsAnsweredAsUpstreamFailure() throws Exception {
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = get("noretry", origin.uri("/echo"));
            if (r.statusCode() == 200) {
                ok++;
            } else {
                assertEquals(502, r.statusCode());
                assertEquals(
                        "upstream_failed",
                        r.headers().firstValue("X-ProxyPool-Error").orElse(""));
                failed++;
            }
        }
        assertTrue(
                ok >= 1 && failed >= 1,
                "round robin over a good and a refusing proxy, no retry: ok=" + ok + " failed=" + failed);
    }

    @Test
    void aDestinations403BansTheProxyForThatDomainOnly() throws Exception {
        HttpResponse<String> forbidden = get("ban403", origin.uri("/status/403"));
        assertEquals(403, forbidden.statusCode(), "the destination's answer is relayed");
        HttpResponse<String> again = get("ban403", origin.uri("/echo"));
        assertEquals(503, again.statusCode(), "the proxy is banned for 127.0.0.1");
        assertEquals(
                200,
                get("ban403", URI.create("http://localhost:" + origin.port() + "/echo"))
                        .statusCode(),
                "and still healthy for other destinations");
    }

    @Test
    void capacityLimitIsHonouredUnderConcurrency() throws Exception {
        int clients = 6;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            statuses.add(pool.submit(() -> {
                go.await();
                return get("single", origin.uri("/slow?ms=1500")).statusCode();
            }));
        }
        go.countDown();
        int ok = 0;
        int busy = 0;
        for (Future<Integer> f : statuses) {
            int s = f.get(30, TimeUnit.SECONDS);
            if (s == 200) {
                ok++;
            } else if (s == 503) {
                busy++;
            }
        }
        pool.shutdown();
        assertTrue(ok >= 1, "at least one request got the single slot");
        assertTrue(busy >= 1, "max concurrency 1 turns concurrent requests away (ok=" + ok + ", busy=" + busy + ")");
        assertEquals(clients, ok + busy);
    }

    @Test
    void theUsernameCarriesTheSessionCommercialStyle() throws Exception {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            Process p = new ProcessBuilder(
                            "curl",
                            "-sS",
                            "-m",
                            "15",
                            "-o",
                            "/dev/null",
                            "-D",
                            "-",
                            "-x",
                            "http://127.0.0.1:" + server.gatewayPort(),
                            "-U",
                            "alice-session-u42:alice-secret",
                            "-H",
                            "X-Route: sticky",
                            origin.url("/echo"))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            assertTrue(out.startsWith("HTTP/1.1 200"), out);
            ids.add(out.lines()
                    .filter(l -> l.startsWith("X-ProxyPool-Proxy:"))
                    .findFirst()
                    .orElseThrow());
        }
        assertEquals(1, ids.size(), "session from the username keeps its proxy: " + ids);
    }

    @Test
    void destinationsAreCheckedBeforeAnyProxyIsUsed() throws Exception {
        HttpResponse<String> metadata = get(null, URI.create("http://169.254.169.254/latest/meta-data/"));
        assertEquals(403, metadata.statusCode());
        assertEquals(
                "destination_denied",
                metadata.headers().firstValue("X-ProxyPool-Error").orElse(""));
        HttpResponse<String> privateNet = get(null, URI.create("http://10.1.2.3/"));
        assertEquals(403, privateNet.statusCode());
    }

    @Test
    void curlWorksThroughTheGateway() throws Exception {
        Process p = new ProcessBuilder(
                        "curl",
                        "-sS",
                        "-m",
                        "15",
                        "-x",
                        "http://127.0.0.1:" + server.gatewayPort(),
                        "-U",
                        "alice:alice-secret",
                        "-D",
                        "-",
                        origin.url("/echo"))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("HTTP/1.1 200"), out);
        assertTrue(out.contains("X-ProxyPool-Proxy: p-"), out);
    }
}
