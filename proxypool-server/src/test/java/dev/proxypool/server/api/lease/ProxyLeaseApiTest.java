package dev.proxypool.server.api.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
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
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote acquire/release API over real HTTP against a server started in process, with real
 * loopback upstream proxies: acquire, use the returned URL (credentials included) through the
 * proxy, release; capacity held and freed; expiry by the server; idempotent acquire; list filtering;
 * health fed by release outcomes; the admin view of the audit.
 */
@Tag("slow")
class ProxyLeaseApiTest {

    static final String ALICE = "alice-token-0123456789";
    static final String BOB = "bob-token-0123456789ab";
    static final String ADMIN = "admin-token-0123456789";

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy authProxy;
    static FakeHttpProxy single;
    static FakeHttpProxy pairA;
    static FakeHttpProxy pairB;
    static FakeHttpProxy expiring;
    static FakeHttpProxy idem;
    static int refusedPort;
    static ProxyPoolServer server;
    static HttpClient http;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        authProxy =
                FakeHttpProxy.builder().basicAuth("vendor-user", "p@ss:word/%").start();
        single = FakeHttpProxy.start();
        pairA = FakeHttpProxy.start();
        pairB = FakeHttpProxy.start();
        expiring = FakeHttpProxy.start();
        idem = FakeHttpProxy.start();
        refusedPort = TestPorts.closedPort();
        Files.writeString(dir.resolve("credentials.properties"), """
                vendor.username=vendor-user
                vendor.password=p@ss:word/%
                """);
        String inv = line(authProxy.port(), "vendor", "auth", "dc", 5)
                + line(single.port(), "", "single", "dc", 1)
                + line(pairA.port(), "", "pair", "res", 5)
                + line(pairB.port(), "", "pair", "res", 5)
                + line(expiring.port(), "", "expiring", "dc", 1)
                + line(idem.port(), "", "idem", "dc", 3)
                + line(refusedPort, "", "victim", "res", 5);
        Files.writeString(dir.resolve("inventory.jsonl"), inv);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: %s }
                clients:
                  - { name: alice, secret: alice-secret, token: %s }
                  - { name: bob, secret: bob-secret-1, token: %s }
                credentials: { file: credentials.properties }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                distribution: { leaseHold: 30s, leaseMaxHold: 2m }
                """.formatted(ADMIN, ALICE, BOB));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Await.standard()
                .until("the inventory is in the pool", () -> engine().snapshot().size() == 7);
    }

    private static String line(int port, String credentialRef, String kind, String type, int maxConcurrency) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\""
                + (credentialRef.isEmpty() ? "" : ", \"credentialRef\": \"" + credentialRef + "\"")
                + ", \"labels\": {\"kind\": \"" + kind + "\", \"type\": \"" + type + "\"}, \"maxConcurrency\": "
                + maxConcurrency + "}\n";
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {origin, authProxy, single, pairA, pairB, expiring, idem}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static PoolEngine engine() {
        return EmbeddedProxyPool.engineOf(server.pool());
    }

    static ProxyRuntime runtime(String proxyId) {
        return engine().runtime(proxyId).orElseThrow();
    }

    record Answer(int status, JsonNode json, HttpResponse<String> raw) {}

    static Answer call(String method, String path, String token, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .timeout(Duration.ofSeconds(15));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        b.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpRequest request = b.build();
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            OpenApiContract.get().check(request, body, r);
            JsonNode json = r.body().isEmpty() ? null : JsonCodec.read(r.body(), JsonCodec.Nesting.FEED);
            return new Answer(r.statusCode(), json, r);
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Answer acquire(String token, String body, String... headers) {
        return call("POST", "/v1/proxy/acquire", token, body, headers);
    }

    static Answer release(String token, String leaseId, String outcome) {
        return call(
                "POST",
                "/v1/proxy/release",
                token,
                "{\"leaseId\": \"" + leaseId + "\", \"outcome\": \"" + outcome + "\"}");
    }

    /** A plain GET through the proxy of {@code url}, its credentials (if any) as Proxy-Authorization. */
    static int getThrough(String url) throws IOException {
        URI u = URI.create(url);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(u.getHost(), u.getPort()), 5_000);
            s.setSoTimeout(5_000);
            StringBuilder req = new StringBuilder()
                    .append("GET http://127.0.0.1:")
                    .append(origin.port())
                    .append("/echo HTTP/1.1\r\nHost: 127.0.0.1:")
                    .append(origin.port())
                    .append("\r\nConnection: close\r\n");
            if (u.getUserInfo() != null) { // getUserInfo decodes the percent-encoding
                req.append("Proxy-Authorization: Basic ")
                        .append(Base64.getEncoder()
                                .encodeToString(u.getUserInfo().getBytes(StandardCharsets.UTF_8)))
                        .append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    @Test
    void acquireUseTheUrlThroughTheProxyAndReleaseOk() throws IOException {
        Answer a = acquire(ALICE, "{\"host\": \"shop.example\", \"filter\": {\"labels\": {\"kind\": \"auth\"}}}");
        assertEquals(200, a.status(), a.raw().body());
        JsonNode j = a.json();
        String leaseId = j.get("leaseId").asText();
        String proxyId = j.get("proxyId").asText();
        assertTrue(leaseId.startsWith("l-"), leaseId);
        assertEquals("held", j.get("state").asText());
        assertEquals(
                "http://vendor-user:p%40ss%3Aword%2F%25@127.0.0.1:" + authProxy.port(),
                j.get("url").asText());
        assertEquals("lab", j.get("upstream").asText());
        assertEquals("default", j.get("routing").asText());
        assertEquals(30, j.get("holdSeconds").asLong());
        assertEquals(1, runtime(proxyId).capacity().inFlight(), "the lease holds one unit of capacity");

        long withCredentials = authProxy.requestsWithCredentials();
        assertEquals(200, getThrough(j.get("url").asText()), "the returned URL works through the real proxy");
        assertEquals(withCredentials + 1, authProxy.requestsWithCredentials());

        Answer r = call(
                "POST",
                "/v1/proxy/release",
                ALICE,
                "{\"leaseId\": \"" + leaseId + "\", \"outcome\": \"ok\", \"latencyMs\": 42}");
        assertEquals(200, r.status(), r.raw().body());
        assertEquals("released", r.json().get("state").asText());
        assertEquals("ok", r.json().get("outcome").asText());
        assertFalse(r.json().get("alreadyReleased").asBoolean());
        assertEquals(0, runtime(proxyId).capacity().inFlight(), "released: the capacity is back");

        Answer again = release(ALICE, leaseId, "ok");
        assertEquals(200, again.status(), again.raw().body());
        assertTrue(again.json().get("alreadyReleased").asBoolean());
        assertEquals(0, runtime(proxyId).capacity().inFlight(), "a second release releases nothing more");

        Answer other = release(BOB, leaseId, "ok");
        assertEquals(404, other.status(), "another client's lease is unknown to this client");
        assertEquals("unknown_lease", other.json().get("error").asText());
    }

    @Test
    void aFailedReleaseIsReportedAndThreeMakeTheProxyCool() {
        String proxyId = null;
        for (int i = 0; i < 3; i++) {
            Answer a = acquire(ALICE, "{\"host\": \"shop.example\", \"filter\": {\"labels\": {\"kind\": \"victim\"}}}");
            assertEquals(200, a.status(), "acquire " + i + ": " + a.raw().body());
            proxyId = a.json().get("proxyId").asText();
            URI u = URI.create(a.json().get("url").asText());
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(u.getHost(), u.getPort()), 2_000);
                throw new AssertionError("the victim's port should refuse connections");
            } catch (ConnectException expected) {
                // the client's real failure, reported with the gateway's vocabulary
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            Answer r = release(ALICE, a.json().get("leaseId").asText(), "connection_refused");
            assertEquals(200, r.status(), r.raw().body());
            assertEquals("connection_refused", r.json().get("outcome").asText());
        }
        Answer admin = call("GET", "/v1/admin/proxies/" + proxyId, ADMIN, null);
        assertEquals(200, admin.status(), admin.raw().body());
        JsonNode record = admin.json().get("healthRecord");
        assertEquals("COOLING", record.get("state").asText(), admin.raw().body());
        assertEquals("connection_refused", record.get("reason").asText());
        assertEquals("passive", record.get("stage").asText());

        Answer after = acquire(ALICE, "{\"filter\": {\"labels\": {\"kind\": \"victim\"}}}");
        assertEquals(
                503,
                after.status(),
                "a cooling proxy is not leased: " + after.raw().body());
        assertEquals("no_candidate", after.json().get("error").asText());
    }

    @Test
    void capacityIsHeldForTheLeaseAndFreedByTheRelease() {
        String body = "{\"filter\": {\"labels\": {\"kind\": \"single\"}}}";
        Answer first = acquire(ALICE, body);
        assertEquals(200, first.status(), first.raw().body());
        String proxyId = first.json().get("proxyId").asText();
        assertEquals(1, runtime(proxyId).capacity().inFlight());

        Answer second = acquire(BOB, body);
        assertEquals(
                503,
                second.status(),
                "maxConcurrency 1 is held: " + second.raw().body());
        assertEquals("no_candidate", second.json().get("error").asText());
        assertTrue(
                second.json().get("message").asText().contains("busy"),
                second.raw().body());

        assertEquals(
                200,
                release(ALICE, first.json().get("leaseId").asText(), "abandoned")
                        .status());
        assertEquals(0, runtime(proxyId).capacity().inFlight());

        Answer third = acquire(BOB, body);
        assertEquals(200, third.status(), "free again: " + third.raw().body());
        assertEquals(proxyId, third.json().get("proxyId").asText());
        assertEquals(
                200, release(BOB, third.json().get("leaseId").asText(), "ok").status());
    }

    @Test
    void anUnreleasedLeaseExpiresAndIsCounted() {
        long before = server.leases().expiredCount();
        Answer a = acquire(ALICE, "{\"holdSeconds\": 1, \"filter\": {\"labels\": {\"kind\": \"expiring\"}}}");
        assertEquals(200, a.status(), a.raw().body());
        String leaseId = a.json().get("leaseId").asText();
        String proxyId = a.json().get("proxyId").asText();
        assertEquals(1, a.json().get("holdSeconds").asLong());
        assertEquals(1, runtime(proxyId).capacity().inFlight());

        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "the lease expired and its capacity is back",
                        () -> runtime(proxyId).capacity().inFlight() == 0);
        assertEquals(before + 1, server.leases().expiredCount());

        Answer late = release(ALICE, leaseId, "ok");
        assertEquals(409, late.status(), late.raw().body());
        assertEquals("lease_expired", late.json().get("error").asText());
        assertEquals(0, runtime(proxyId).capacity().inFlight(), "a late release releases nothing");

        Answer view = call("GET", "/v1/admin/proxy-leases", ADMIN, null);
        assertEquals(200, view.status(), view.raw().body());
        assertTrue(
                view.json().get("totals").get("lease_expired").asLong() >= 1,
                view.raw().body());
        boolean logged = false;
        for (JsonNode e : view.json().get("recent")) {
            if (leaseId.equals(e.get("leaseId").asText())
                    && e.get("event").asText().equals("expire")) {
                logged = true;
            }
        }
        assertTrue(logged, "the expiry is in the recent log: " + view.raw().body());
    }

    @Test
    void theSameIdempotencyKeyGetsTheSameLease() {
        String body = "{\"host\": \"shop.example\", \"filter\": {\"labels\": {\"kind\": \"idem\"}}}";
        Answer a = acquire(ALICE, body, "Idempotency-Key", "job-1");
        assertEquals(200, a.status(), a.raw().body());
        String proxyId = a.json().get("proxyId").asText();
        Answer b = acquire(ALICE, body.replace("{\"host\"", "{ \"host\""), "Idempotency-Key", "job-1");
        assertEquals(200, b.status(), b.raw().body());
        assertEquals(a.json().get("leaseId").asText(), b.json().get("leaseId").asText());
        assertEquals(a.json().get("url").asText(), b.json().get("url").asText());
        assertEquals("true", b.raw().headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(1, runtime(proxyId).capacity().inFlight(), "one lease, one unit of capacity");

        Answer other = acquire(ALICE, body.replace("shop.example", "other.example"), "Idempotency-Key", "job-1");
        assertEquals(422, other.status(), other.raw().body());
        assertEquals("idempotency_key_reused", other.json().get("error").asText());

        Answer bobs = acquire(BOB, body, "Idempotency-Key", "job-1");
        assertEquals(200, bobs.status(), "keys are per client: " + bobs.raw().body());
        assertNotEquals(
                a.json().get("leaseId").asText(), bobs.json().get("leaseId").asText());

        assertEquals(200, release(ALICE, a.json().get("leaseId").asText(), "ok").status());
        Answer replayAfterRelease = acquire(ALICE, body, "Idempotency-Key", "job-1");
        assertEquals(
                a.json().get("leaseId").asText(),
                replayAfterRelease.json().get("leaseId").asText());
        assertEquals("released", replayAfterRelease.json().get("state").asText());
        assertEquals(
                200, release(BOB, bobs.json().get("leaseId").asText(), "ok").status());
        assertEquals(0, runtime(proxyId).capacity().inFlight());
    }

    @Test
    void listFiltersByLabelAndMasksAddresses() {
        Answer l = call("GET", "/v1/proxy/list?label.kind=pair", ALICE, null);
        assertEquals(200, l.status(), l.raw().body());
        assertEquals(2, l.json().get("count").asInt());
        Set<Integer> ports = new HashSet<>();
        for (JsonNode p : l.json().get("proxies")) {
            assertEquals("pair", p.get("labels").get("kind").asText());
            assertFalse(p.get("host").asText().contains("127.0.0.1"), "masked: " + p);
            assertTrue(p.get("acquirable").asBoolean(), p.toString());
            ports.add(p.get("port").asInt());
        }
        assertEquals(Set.of(pairA.port(), pairB.port()), ports);

        Answer dc = call("GET", "/v1/proxy/list?label.type=dc&label.kind=single", ALICE, null);
        assertEquals(1, dc.json().get("count").asInt(), dc.raw().body());

        Answer bad = call("GET", "/v1/proxy/list?colour=red", ALICE, null);
        assertEquals(400, bad.status());
        assertTrue(
                bad.json().get("message").asText().contains("colour"), bad.raw().body());

        assertEquals(401, call("GET", "/v1/proxy/list", null, null).status());
    }

    @Test
    void aSessionKeepsItsProxyAcrossLeases() {
        String body = "{\"session\": \"s-1\", \"filter\": {\"labels\": {\"kind\": \"pair\"}}}";
        Answer first = acquire(ALICE, body);
        assertEquals(200, first.status(), first.raw().body());
        assertEquals("s-1", first.json().get("session").asText());
        String proxyId = first.json().get("proxyId").asText();
        assertEquals(
                200, release(ALICE, first.json().get("leaseId").asText(), "ok").status());
        for (int i = 0; i < 6; i++) {
            Answer next = acquire(ALICE, body);
            assertEquals(proxyId, next.json().get("proxyId").asText(), "the session stays on its proxy: " + i);
            assertEquals(
                    200,
                    release(ALICE, next.json().get("leaseId").asText(), "ok").status());
        }
    }

    @Test
    void selectionByUpstreamAndProtocolNarrowsTheRouting() {
        Answer none = acquire(ALICE, "{\"filter\": {\"upstream\": \"elsewhere\", \"labels\": {\"kind\": \"pair\"}}}");
        assertEquals(503, none.status(), none.raw().body());
        assertEquals("no_candidate", none.json().get("error").asText());
        Answer socks = acquire(ALICE, "{\"filter\": {\"protocol\": \"socks5\", \"labels\": {\"kind\": \"pair\"}}}");
        assertEquals(503, socks.status(), socks.raw().body());
        Answer ok = acquire(
                ALICE,
                "{\"filter\": {\"upstream\": \"lab\", \"protocol\": \"http\", \"labels\": {\"kind\": \"pair\"}}}");
        assertEquals(200, ok.status(), ok.raw().body());
        assertEquals(
                200, release(ALICE, ok.json().get("leaseId").asText(), "ok").status());
    }

    @Test
    void badRequestsAreRefusedNamingTheField() {
        Answer unauth = acquire("wrong-token-0123456789", "{}");
        assertEquals(401, unauth.status());
        Answer hold = acquire(ALICE, "{\"holdSeconds\": 100000}");
        assertEquals(400, hold.status());
        assertTrue(
                hold.json().get("message").asText().contains("holdSeconds must be between 1 and 120"),
                hold.raw().body());
        Answer unknown = acquire(ALICE, "{\"colour\": \"red\"}");
        assertEquals(400, unknown.status());
        assertTrue(unknown.json().get("message").asText().contains("colour"));
        Answer outcome = release(ALICE, "l-abc", "exploded");
        assertEquals(400, outcome.status());
        assertTrue(
                outcome.json().get("message").asText().contains("connection_refused"),
                outcome.raw().body());
        Answer missing = release(ALICE, "l-doesnotexist", "ok");
        assertEquals(404, missing.status());
        assertEquals("unknown_lease", missing.json().get("error").asText());
        Answer routing = acquire(ALICE, "{\"routing\": \"nope\"}");
        assertEquals(400, routing.status());
        assertTrue(routing.json().get("message").asText().contains("routing 'nope'"));
    }

    @Test
    void theAdminViewCountsPerRoutingAndUpstreamWithoutSecrets() {
        Answer a = acquire(ALICE, "{\"filter\": {\"labels\": {\"kind\": \"auth\"}}}");
        assertEquals(200, a.status(), a.raw().body());
        assertEquals(
                200,
                call(
                                "POST",
                                "/v1/proxy/release",
                                ALICE,
                                "{\"leaseId\": \"" + a.json().get("leaseId").asText()
                                        + "\", \"outcome\": \"connect_timeout\", \"bannedDomain\": \"banned.example\"}")
                        .status());
        Answer view = call("GET", "/v1/admin/proxy-leases", ADMIN, null);
        assertEquals(200, view.status(), view.raw().body());
        String text = view.raw().body();
        assertFalse(text.contains("p%40ss") || text.contains("p@ss") || text.contains("vendor-user"), text);
        assertFalse(text.contains("127.0.0.1"), "addresses are masked: " + text);
        boolean counted = false;
        for (JsonNode row : view.json().get("byRouting")) {
            if (row.get("routing").asText().equals("default")
                    && row.get("upstream").asText().equals("lab")) {
                counted = row.get("outcomes").path("connect_timeout").asLong() >= 1
                        && row.get("acquired").asLong() >= 1;
            }
        }
        assertTrue(counted, text);
        assertEquals(401, call("GET", "/v1/admin/proxy-leases", ALICE, null).status());
        Proxy p = engine().snapshot().proxies().stream()
                .filter(x -> x.id().equals(a.json().get("proxyId").asText()))
                .findFirst()
                .orElseThrow();
        assertTrue(runtime(p.id())
                .health()
                .isBannedFor("banned.example", engine().ticker().read()));
    }
}
