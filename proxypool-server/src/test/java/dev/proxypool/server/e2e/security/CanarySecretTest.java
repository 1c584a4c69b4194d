package dev.proxypool.server.e2e.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
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
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * docs/design.md#security (X6, X8): canary secrets placed in a proxy credential (credentials file, credentialRef),
 * a provider's API token (an {@code http_json_feed} with {@code tokenEnv}, served by a local feed
 * that demands it), a client's gateway secret and API token, the admin token, and a self-hosted
 * node's pre-issued token and short-lived credential, then real traffic through a
 * ProxyPoolServer on the real Redis (127.0.0.1:6379, a unique key prefix removed after). Afterwards
 * every place a secret could leak is scanned: all log records, metrics and health, every HTTP
 * response body and header, every Redis key and value under the prefix (cluster snapshot frames
 * decoded), the in-memory snapshot and the config objects' toString. The single legitimate
 * appearance, the extracted proxy's {@code url}, is checked to be there and then cut out; the node
 * token and credential are shown once by design (the issuing and the registering response), which
 * are checked to hold them and are scanned for every other canary.
 */
@Tag("slow")
class CanarySecretTest {

    private static final String PROXY_USER = "vendor-user";
    private static final Pattern URL_FIELD = Pattern.compile("\"url\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern PROXY_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    @TempDir
    Path dir;

    private final String proxyPassword = Canaries.fresh();
    private final String clientSecret = Canaries.fresh();
    private final String clientToken = Canaries.fresh();
    private final String adminToken = Canaries.fresh();
    private final String newClientSecret = Canaries.fresh();
    private final String newClientToken = Canaries.fresh();
    private final String providerToken = Canaries.fresh();
    private final String prefix = "pptest:" + UUID.randomUUID() + ":";
    private final List<HttpResponse<String>> responses = new ArrayList<>();

    @Test
    void canarySecretsNeverLeakIntoLogsMetricsSnapshotsRedisOrApiResponses() throws Exception {
        Canaries canaries = new Canaries()
                .watch("proxy credential password", proxyPassword)
                .watchBasic("proxy credential", PROXY_USER, proxyPassword)
                .watch("client gateway secret", clientSecret)
                .watchBasic("client gateway secret", "alice", clientSecret)
                .watch("client API token", clientToken)
                .watch("admin token", adminToken)
                .watch("secret of a client created through the admin API", newClientSecret)
                .watch("token of a client created through the admin API", newClientToken)
                .watch("provider API token", providerToken);
        try (RedisClient redis =
                        RedisClient.builder().hostAndPort("127.0.0.1", 6379).build();
                LogCapture logs = LogCapture.install();
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream = FakeHttpProxy.builder()
                        .basicAuth(PROXY_USER, proxyPassword)
                        .start();
                FakeHttpProxy upstream2 = FakeHttpProxy.builder()
                        .basicAuth(PROXY_USER, proxyPassword)
                        .start();
                FakeHttpProxy node = FakeHttpProxy.start();
                ProviderFeed feed = ProviderFeed.start(providerToken, upstream2.port())) {
            try {
                ProxyPoolConfig config = config(feed.url(), upstream.port());
                try (ProxyPoolServer server = ProxyPoolServer.builder(config)
                        .configDir(dir)
                        .pool(b -> b.environment(Map.of("CANARY_FEED_TOKEN", providerToken)))
                        .start()) {
                    String proxyId = driveTraffic(server, origin);
                    assertTrue(feed.authorizedFetches() >= 1, "the provider feed was fetched with its token");
                    assertTrue(
                            upstream.requestsWithCredentials() + upstream2.requestsWithCredentials() >= 4,
                            "the credential store's password reached the upstreams");
                    createClientThroughAdmin(server);
                    List<Proxy> live =
                            EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies();
                    assertEquals(2, live.size(), "both proxies in the snapshot before the extractions");
                    for (Proxy p : live) {
                        canaries.scan(
                                "in-memory snapshot proxy " + p.id(),
                                p + " " + p.key() + " " + p.key().credentialRef());
                    }
                    canaries.scan(
                            "in-memory snapshot",
                            EmbeddedProxyPool.engineOf(server.pool()).snapshot().toString());
                    long beforeNode = publishedVersion(redis);
                    registerNode(server, node, canaries);
                    awaitVersionAfter(redis, beforeNode); // a published snapshot version with both proxies and the node
                    scanRedis(redis, canaries, "before extractions");

                    long beforeExtractions = publishedVersion(redis);
                    PoolSnapshot servedBefore =
                            EmbeddedProxyPool.engineOf(server.pool()).snapshot();
                    String plain = extractOne(server, null, canaries);
                    String idempotent = extractOne(server, "canary-" + UUID.randomUUID(), canaries);
                    for (String url : List.of(plain, idempotent)) {
                        assertTrue(
                                url.contains(proxyPassword),
                                "sanity: the extracted proxy url is the one place the proxy password belongs");
                    }

                    // the control plane publishes whenever the engine's snapshot changes: if the extractions
                    // changed it, the scan below must see that version
                    if (EmbeddedProxyPool.engineOf(server.pool()).snapshot() != servedBefore) {
                        awaitVersionAfter(redis, beforeExtractions);
                    }
                    scannersSeeAPlantedMarker(redis, logs);
                    scanRedis(redis, canaries, "after extractions");
                    assertTrue(
                            RedisDump.keys(redis, prefix).stream().anyMatch(k -> k.endsWith("snapshot:full")),
                            "sanity: the cluster snapshot was published under the prefix");

                    responses.add(get(server, "/observe/metrics", "Accept", "text/plain"));
                    responses.add(get(server, "/observe/health"));
                    assertEquals(200, responses.getLast().statusCode());
                    assertTrue(
                            responses.get(responses.size() - 2).body().contains("# TYPE"), "sanity: Prometheus text");

                    canaries.scan(
                            "in-memory snapshot after extractions",
                            EmbeddedProxyPool.engineOf(server.pool()).snapshot().toString());
                    canaries.scan("admin snapshot proxy id used in feedback", proxyId);
                }
                scanConfig(canaries, config);
                for (int i = 0; i < responses.size(); i++) {
                    HttpResponse<String> r = responses.get(i);
                    String where = "HTTP response #" + i + " " + r.request().method() + " "
                            + r.request().uri().getPath();
                    canaries.scan(where + " body", r.body());
                    r.headers()
                            .map()
                            .forEach((name, values) ->
                                    canaries.scan(where + " header " + name, String.join("\n", values)));
                }
                List<LogCapture.Line> lines = logs.lines();
                assertTrue(
                        lines.stream().anyMatch(l -> l.text().contains("proxypool serving")),
                        "sanity: logs were captured");
                for (LogCapture.Line l : lines) {
                    canaries.scan(l.where(), l.text());
                }
                System.out.printf(
                        "canary scan: %d haystacks (%d log records, %d HTTP responses), %d hits%n",
                        canaries.scanned(),
                        lines.size(),
                        responses.size(),
                        canaries.hits().size());
                assertEquals(
                        List.of(),
                        canaries.hits(),
                        "canary secrets leaked (" + canaries.scanned() + " haystacks scanned)");
            } finally {
                RedisDump.delete(redis, prefix);
            }
        }
    }

    private ProxyPoolConfig config(String feedUrl, int... upstreamPorts) throws Exception {
        Files.writeString(
                dir.resolve("credentials.properties"),
                "vendor.username=" + PROXY_USER + "\nvendor.password=" + proxyPassword + "\n");
        StringBuilder inventory = new StringBuilder();
        for (int port : upstreamPorts) {
            inventory
                    .append("{\"host\": \"127.0.0.1\", \"port\": ")
                    .append(port)
                    .append(
                            ", \"protocol\": \"http\", \"credentialRef\": \"vendor\", \"labels\": {\"country\": \"US\"}}\n");
        }
        Files.writeString(dir.resolve("inventory.jsonl"), inventory.toString());
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                admin: { token: %s }
                clients: [{ name: alice, secret: %s, token: %s }]
                credentials: { file: credentials.properties }
                providers:
                  - { name: lab, type: jsonl_inventory, path: inventory.jsonl }
                  - { name: feed, type: http_json_feed, url: "%s", tokenEnv: CANARY_FEED_TOKEN, credentialRef: vendor,
                      labels: { country: US } }
                upstreams: [{ name: lab, provider: lab, validate: false }, { name: feed, provider: feed, validate: false }]
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"] }
                """.formatted(prefix, adminToken, clientSecret, clientToken, feedUrl));
        return ConfigLoader.load(cfg, Map.of());
    }

    /** Gateway requests (good and rejected), feedback and admin reads; returns the proxy's opaque id. */
    private String driveTraffic(ProxyPoolServer server, FakeOrigin origin) throws Exception {
        awaitPool(server);
        String alice = basic("alice", clientSecret);
        String proxyId = "";
        try (HttpClient gateway = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = gateway.send(
                        HttpRequest.newBuilder(origin.uri("/echo?i=" + i))
                                .timeout(Duration.ofSeconds(15))
                                .header("Proxy-Authorization", alice)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), "gateway request " + i);
                responses.add(r);
                proxyId = r.headers().firstValue("X-ProxyPool-Proxy").orElseThrow();
            }
            HttpResponse<String> wrong = gateway.send(
                    HttpRequest.newBuilder(origin.uri("/echo"))
                            .timeout(Duration.ofSeconds(15))
                            .header("Proxy-Authorization", basic("alice", "not-" + clientSecret))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(407, wrong.statusCode(), "wrong gateway password");
            responses.add(wrong);
        }
        HttpResponse<String> feedback = send(
                server,
                "POST",
                "/v1/feedback",
                clientToken,
                "{\"proxy\": \"" + proxyId + "\", \"domain\": \"shop.example\", \"kind\": \"banned\"}");
        assertTrue(feedback.statusCode() / 100 == 2, "feedback accepted: " + feedback.statusCode());
        HttpResponse<String> badBearer = send(server, "GET", "/v1/admin/proxies", "not-" + adminToken, null);
        assertTrue(badBearer.statusCode() == 401 || badBearer.statusCode() == 403, "a wrong admin token is refused");
        for (String path : List.of(
                "/v1/admin/proxies",
                "/v1/admin/snapshot",
                "/v1/admin/audit",
                "/v1/admin/clients",
                "/v1/admin/clients/alice",
                "/v1/admin/upstreams",
                "/v1/admin/providers")) {
            HttpResponse<String> r = send(server, "GET", path, adminToken, null);
            assertEquals(200, r.statusCode(), path + ": " + r.body().length() + " bytes");
        }
        assertTrue(
                send(server, "GET", "/v1/admin/proxies", adminToken, null)
                        .body()
                        .contains(proxyId),
                "sanity: proxy listed");
        return proxyId;
    }

    /** Every key and value under the prefix (snapshot frames decoded), labelled with the phase. */
    private void scanRedis(RedisClient redis, Canaries canaries, String phase) {
        List<RedisDump.Item> stored = RedisDump.dump(redis, prefix);
        for (RedisDump.Item item : stored) {
            String text = item.text();
            if (item.where().startsWith("redis hash " + prefix + "i:")
                    && item.where().endsWith(" field 'resp' value")) {
                // regression: the Idempotency-Key record once kept the extraction response with the proxy
                // password in its url; it now keeps a credential placeholder
                assertTrue(text.contains("{{credential:"), "the idempotency record keeps a credential placeholder");
            }
            canaries.scan(phase + ": " + item.where(), text);
        }
        assertTrue(
                stored.stream().anyMatch(i -> i.where().endsWith("(decoded snapshot frame)")),
                "sanity: a cluster snapshot frame was decoded and scanned");
        assertTrue(
                stored.stream().anyMatch(i -> i.where().startsWith("redis hash {" + prefix + "0}:r ")),
                "sanity: the pool store's records were scanned");
    }

    /**
     * Positive control for the scanners themselves: a marker (not one of the canaries) planted in
     * a string, a hash, a stream and a log record's parameter must be found in each, and is removed.
     */
    private void scannersSeeAPlantedMarker(RedisClient redis, LogCapture logs) {
        String marker = "MARKER-" + Canaries.fresh();
        String control = prefix + "control:";
        redis.set(control + "s", "x" + marker);
        redis.hset(control + "h", "f", "y" + marker);
        redis.xadd(control + "x", StreamEntryID.NEW_ENTRY, Map.of("d", "z" + marker));
        java.util.logging.Logger.getLogger("canary.control").log(java.util.logging.Level.FINE, "control {0}", marker);
        Canaries c = new Canaries().watch("marker", marker);
        RedisDump.dump(redis, control).forEach(i -> c.scan(i.where(), i.text()));
        logs.lines().forEach(l -> c.scan(l.where(), l.text()));
        redis.unlink(control + "s", control + "h", control + "x");
        assertEquals(4, c.hits().size(), "positive control: the marker is found in each planted place: " + c.hits());
    }

    /**
     * A self-hosted node: the admin issues its token (shown once), the node registers with it and
     * gets a short-lived credential (shown once), heartbeats with it; then the node lists are read.
     * Both secrets become canaries; the two responses that must show them are checked and scanned
     * for the other canaries only.
     */
    private void registerNode(ProxyPoolServer server, FakeHttpProxy node, Canaries canaries) throws Exception {
        HttpResponse<String> issued = send(server, "POST", "/v1/nodes/tokens", adminToken, "{\"name\": \"rack-1\"}");
        assertEquals(201, issued.statusCode(), issued.body());
        responses.removeLast();
        String nodeToken = jsonField(issued.body(), "token");
        canaries.scan("node token issuing response", issued.body().replace(nodeToken, "<node token>"));
        HttpResponse<String> registered = send(
                server,
                "POST",
                "/v1/nodes",
                "",
                "{\"token\": \"" + nodeToken + "\", \"host\": \"127.0.0.1\", \"port\": " + node.port()
                        + ", \"protocol\": \"http\", \"labels\": {\"country\": \"DE\"}}");
        assertEquals(201, registered.statusCode(), registered.body());
        responses.removeLast();
        String nodeId = jsonField(registered.body(), "nodeId");
        String credential = jsonField(registered.body(), "credential");
        canaries.scan("node registration response", registered.body().replace(credential, "<node credential>"));
        canaries.watch("node token", nodeToken).watch("node credential", credential);
        HttpResponse<String> beat = send(server, "POST", "/v1/nodes/" + nodeId + "/heartbeat", credential, "{}");
        assertEquals(200, beat.statusCode(), beat.body());
        HttpResponse<String> wrongBeat =
                send(server, "POST", "/v1/nodes/" + nodeId + "/heartbeat", "not-" + credential, "{}");
        assertEquals(401, wrongBeat.statusCode(), "a wrong node credential is refused");
        assertEquals(
                401,
                send(
                                server,
                                "POST",
                                "/v1/nodes",
                                "",
                                "{\"token\": \"not-" + nodeToken
                                        + "\", \"host\": \"127.0.0.1\", \"port\": 1, \"protocol\": \"http\"}")
                        .statusCode(),
                "a wrong node token is refused");
        for (String path : List.of("/v1/nodes", "/v1/nodes/tokens", "/v1/admin/audit", "/v1/admin/proxies")) {
            assertEquals(200, send(server, "GET", path, adminToken, null).statusCode(), path);
        }
        assertTrue(responses.getLast().body().contains("\"nodes\""), "sanity: the node's proxy is listed");
    }

    private static String jsonField(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    /** An admin write (audited, with before/after) that carries a new client's secret and token. */
    private void createClientThroughAdmin(ProxyPoolServer server) throws Exception {
        HttpResponse<String> created = send(
                server,
                "POST",
                "/v1/admin/clients",
                adminToken,
                "{\"name\": \"bob\", \"secret\": \"" + newClientSecret + "\", \"token\": \"" + newClientToken + "\"}");
        assertEquals(201, created.statusCode(), "client created");
        for (String path : List.of("/v1/admin/clients/bob", "/v1/admin/clients", "/v1/admin/audit")) {
            assertEquals(200, send(server, "GET", path, adminToken, null).statusCode(), path);
        }
        assertTrue(responses.getLast().body().contains("bob"), "sanity: the audit log records the change");
    }

    /**
     * One exclusive extraction (optionally with an Idempotency-Key); returns the url field and
     * records the body with exactly that field cut out. Positive control: the scanner does see the
     * password in the uncut body.
     */
    private String extractOne(ProxyPoolServer server, String idempotencyKey, Canaries canaries) throws Exception {
        HttpResponse<String> r = send(
                server,
                "POST",
                "/v1/extractions",
                clientToken,
                "{\"count\": 1, \"filter\": {\"country\": \"US\"}}",
                idempotencyKey == null ? new String[0] : new String[] {"Idempotency-Key", idempotencyKey});
        assertEquals(200, r.statusCode(), "extraction");
        responses.removeLast();
        Canaries control = canaries.copyNeedles();
        control.scan("control", r.body());
        assertEquals(
                1,
                control.hits().size(),
                "positive control: the scanner finds the password in the uncut extraction body");
        Matcher m = URL_FIELD.matcher(r.body());
        assertTrue(m.find(), "the extraction response has a url field");
        String url = m.group(1);
        String rest =
                r.body().substring(0, m.start(1)) + "<url removed>" + r.body().substring(m.end(1));
        assertTrue(!URL_FIELD.matcher(rest).replaceFirst("").contains("\"url\""), "exactly one url field");
        responses.add(new RedactedResponse(r, rest));
        assertTrue(PROXY_ID.matcher(rest).find(), "the extracted proxy has an id");
        return url;
    }

    private static void awaitPool(ProxyPoolServer server) {
        Await.atMost(Duration.ofSeconds(15))
                .until(
                        "the 2 inventory proxies in the pool",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        n -> n >= 2);
        assertEquals(
                2,
                EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(),
                "the inventory proxies are in the pool");
    }

    /** The newest cluster snapshot version in Redis: each version appends a delta with id {@code <version>-0}. */
    private long publishedVersion(RedisClient redis) {
        List<StreamEntry> top =
                redis.xrevrange(prefix + "snapshot:deltas", (StreamEntryID) null, (StreamEntryID) null, 1);
        return top.isEmpty() ? 0 : top.getFirst().getID().getTime();
    }

    /** Waits until the control plane has published a snapshot version above {@code version}. */
    private void awaitVersionAfter(RedisClient redis, long version) {
        Await.atMost(Duration.ofSeconds(15))
                .until("a cluster snapshot version above " + version, () -> publishedVersion(redis), v -> v > version);
    }

    private static void scanConfig(Canaries canaries, ProxyPoolConfig config) {
        canaries.scan("ProxyPoolConfig.toString()", config.toString());
        canaries.scan("ProxyPoolConfig.admin().toString()", config.admin().toString());
        canaries.scan(
                "ProxyPoolConfig.credentials().toString()", config.credentials().toString());
        for (ProxyPoolConfig.Client c : config.clients()) {
            canaries.scan("client " + c.name() + " toString()", c.toString());
            canaries.scan("client " + c.name() + " plainSecret", String.valueOf(c.plainSecret()));
            canaries.scan("client " + c.name() + " token", String.valueOf(c.token()));
        }
    }

    private HttpResponse<String> get(ProxyPoolServer server, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .timeout(Duration.ofSeconds(15));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try (HttpClient c = HttpClient.newHttpClient()) {
            return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private HttpResponse<String> send(
            ProxyPoolServer server, String method, String path, String bearer, String json, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                .timeout(Duration.ofSeconds(15))
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (!bearer.isEmpty()) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> r;
        try (HttpClient c = HttpClient.newHttpClient()) {
            r = c.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
        responses.add(r);
        return r;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
