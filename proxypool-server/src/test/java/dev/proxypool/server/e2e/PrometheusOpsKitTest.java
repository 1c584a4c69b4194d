package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.redis.RedisE2e;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestPorts;
import dev.proxypool.testkit.TestTls;
import java.io.File;
import java.net.Authenticator;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations kit against real servers: {@code promtool check metrics} accepts the exposition of
 * a live all-in-one server (after gateway traffic of both kinds, a failing proxy, a failing provider
 * and an extraction) and of a live worker; the alert rules in {@code ops/prometheus} pass
 * {@code promtool check rules} and their unit tests; every metric name the rules and the Grafana
 * dashboard in {@code ops/grafana} query is in one of those two expositions; and no label could
 * carry a proxy or a host (a client only by its configured name, as the byte counters do).
 */
@Tag("slow")
class PrometheusOpsKitTest {

    /** Every label the server's meters may carry: closed, low-cardinality sets. */
    private static final Set<String> LABELS = Set.of(
            "scope",
            "kind",
            "result",
            "reason",
            "upstream",
            "state",
            "outcome",
            "role",
            "routing",
            "stage",
            "le",
            "listener", // listener: gateway, socks, api
            "client", // configured client names only (bytes per client, issue 34), never an address
            "direction"); // sent, received

    private static final Pattern METRIC_NAME = Pattern.compile("\\bproxypool_[a-z0-9_]*[a-z0-9]");
    private static final Pattern LABEL_NAME = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
    private static final String ALICE =
            "Basic " + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path dir;

    @Test
    void liveExpositionsPassPromtoolAndCarryEveryMetricTheAlertsAndTheDashboardQuery() throws Exception {
        String all = allInOneExposition();
        String worker = workerExposition();

        Set<String> exported = new TreeSet<>(sampleNames(all));
        exported.addAll(sampleNames(worker));
        assertTrue(
                sampleNames(worker).contains("proxypool_snapshot_validity_remaining_seconds"),
                "a worker exports how long its snapshot stays valid");
        assertTrue(
                !sampleNames(all).contains("proxypool_snapshot_validity_remaining_seconds"),
                "only workers hold a control-plane snapshot with a validity");

        Path root = repositoryRoot();
        for (Path queried : List.of(
                root.resolve("ops/prometheus/proxypool-alerts.yml"),
                root.resolve("ops/grafana/proxypool-dashboard.json"))) {
            Set<String> missing = new TreeSet<>();
            for (String line : Files.readAllLines(queried)) {
                if (line.strip().startsWith("#")) {
                    continue; // a YAML comment names no query
                }
                Matcher m = METRIC_NAME.matcher(line);
                while (m.find()) {
                    if (!exported.contains(m.group())) {
                        missing.add(m.group());
                    }
                }
            }
            assertTrue(
                    missing.isEmpty(),
                    root.relativize(queried) + " queries metrics no live server exports: " + missing + "\nexported: "
                            + exported);
        }
    }

    @Test
    void alertRulesPassPromtoolChecksAndTheirUnitTestsAndTheDashboardQueriesParse() throws Exception {
        Path rules = repositoryRoot().resolve("ops/prometheus");
        promtool(rules, null, "check", "rules", "proxypool-alerts.yml");
        String tested = promtool(rules, null, "test", "rules", "proxypool-alerts.test.yml");
        assertTrue(tested.contains("SUCCESS"), tested);

        // Every dashboard query parses as PromQL: promtool checks it as a recording rule, with
        // Grafana's variables replaced by values.
        String json = Files.readString(repositoryRoot().resolve("ops/grafana/proxypool-dashboard.json"));
        Matcher expr =
                Pattern.compile("\"expr\":\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
        StringBuilder asRules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int n = 0;
        while (expr.find()) {
            String q = expr.group(1)
                    .replace("\\\"", "\"")
                    .replace("$__rate_interval", "5m")
                    .replace("$job", ".*")
                    .replace("$instance", ".*");
            assertTrue(!q.contains("\\") && !q.contains("$"), "an unexpected escape or variable in " + q);
            asRules.append("      - record: dashboard:query")
                    .append(n++)
                    .append("\n        expr: '")
                    .append(q.replace("'", "''"))
                    .append("'\n");
        }
        assertTrue(n >= 20, "the dashboard has its panels' queries: " + n);
        Files.writeString(dir.resolve("dashboard-queries.yml"), asRules);
        String checked = promtool(dir, null, "check", "rules", "dashboard-queries.yml");
        assertTrue(checked.contains(n + " rules found"), checked);
    }

    /** An all-in-one server: traffic through the gateway, a proxy that fails, a provider that fails, an extraction. */
    private String allInOneExposition() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeOrigin tlsOrigin = FakeOrigin.builder().tls().start();
                FakeHttpProxy good = FakeHttpProxy.start()) {
            int dead = TestPorts.closedPort();
            int noProvider = TestPorts.closedPort();
            Files.writeString(
                    dir.resolve("lab.jsonl"),
                    proxyLine(good.port(), "plain")
                            + proxyLine(good.port(), "plain").replace("127.0.0.1", "localhost")
                            + proxyLine(dead, "dead"));
            StringBuilder stock = new StringBuilder();
            for (int i = 1; i <= 5; i++) {
                stock.append("{\"host\": \"10.99.0.")
                        .append(i)
                        .append("\", \"port\": 8000, \"protocol\": \"http\", \"labels\": {\"kind\": \"stock\"}}\n");
            }
            Files.writeString(dir.resolve("stock.jsonl"), stock);
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                    security: { allowDestinations: ["127.0.0.0/8", "localhost"], connectPorts: [%d] }
                    providers:
                      - { name: lab, type: jsonl_inventory, path: lab.jsonl }
                      - { name: stock, type: jsonl_inventory, path: stock.jsonl }
                      - { name: down, type: text_list, url: "http://127.0.0.1:%d/list", protocol: http }
                    upstreams:
                      - { name: lab, provider: lab, validate: false, fetch: { lowWaterMark: 100 } }
                      - { name: stock, provider: stock, validate: false }
                      - { name: down, provider: down, validate: false }
                    health: { active: { enabled: false } }
                    routings:
                      - { name: dead, match: { headers: { X-Route: dead } }, filter: { labels: { kind: dead } },
                          retry: { maxAttempts: 1 } }
                      - { name: plain, filter: { labels: { kind: plain } } }
                    """.formatted(tlsOrigin.port(), noProvider));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .start();
                    HttpClient api = HttpClient.newHttpClient();
                    HttpClient gateway = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .authenticator(new Authenticator() {
                                @Override
                                protected PasswordAuthentication getPasswordAuthentication() {
                                    return getRequestorType() == RequestorType.PROXY
                                            ? new PasswordAuthentication("alice", "alice-secret".toCharArray())
                                            : null;
                                }
                            })
                            .sslContext(TestTls.clientContext())
                            .connectTimeout(Duration.ofSeconds(5))
                            .build()) {
                String base = "http://127.0.0.1:" + server.apiPort();
                Await.atMost(Duration.ofSeconds(30))
                        .until(
                                "the first collection round (readiness)",
                                () -> api.send(
                                                HttpRequest.newBuilder(URI.create(base + "/observe/health/ready"))
                                                        .build(),
                                                HttpResponse.BodyHandlers.discarding())
                                        .statusCode(),
                                s -> s == 200);
                for (int i = 0; i < 5; i++) {
                    assertEquals(200, gatewayGet(gateway, origin.uri("/echo"), null));
                    assertEquals(200, gatewayGet(gateway, tlsOrigin.uri("/echo"), null));
                }
                List<Integer> deadAnswers = new ArrayList<>();
                for (int i = 0; i < 5; i++) { // three failures cool the dead proxy, then no candidate
                    deadAnswers.add(gatewayGet(gateway, origin.uri("/echo"), "dead"));
                }
                assertTrue(deadAnswers.contains(502) && deadAnswers.contains(503), "dead route: " + deadAnswers);
                HttpResponse<String> extracted = api.send(
                        HttpRequest.newBuilder(URI.create(base + "/v1/extractions"))
                                .header("Authorization", "Bearer alice-token-0123456789")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"count\": 1, \"filter\": {\"upstream\": \"stock\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, extracted.statusCode(), extracted.body());

                String text = Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "an exposition with the fetch error and the health transition",
                                () -> scrape(api, base),
                                t -> t.contains("proxypool_pipeline_fetch_errors_total{")
                                        && t.contains("proxypool_health_transitions_total{"));
                assertCleanExposition(text);
                String latencyBuckets = String.join(
                        "\n",
                        text.lines()
                                .filter(l -> l.startsWith("proxypool_gateway_latency_seconds_bucket{")
                                        && l.contains("kind=\"http\""))
                                .toList());
                long buckets = latencyBuckets.lines().count();
                assertTrue(buckets >= 8 && buckets <= 20, "few latency buckets (" + buckets + "):\n" + latencyBuckets);
                assertTrue(latencyBuckets.contains("le=\"+Inf\""), latencyBuckets);
                assertTrue(
                        text.contains("# TYPE proxypool_gateway_latency_seconds histogram"),
                        "the latency is a histogram");
                assertTrue(
                        text.lines()
                                .anyMatch(l -> l.startsWith("proxypool_routing_candidates{")
                                        && l.contains("routing=\"dead\"")
                                        && l.endsWith(" 0.0")),
                        "the dead routing shows no candidate once its proxy cooled");
                return text;
            }
        }
    }

    /** A worker following a control plane over Redis (its own key prefix). */
    private String workerExposition() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        RedisStoreConfig redis =
                RedisStoreConfig.fromUri("redis://127.0.0.1:6379").withKeyPrefix(prefix);
        Path workerDir = Files.createDirectories(dir.resolve("worker"));
        Path cfg = RedisE2e.workerConfig(workerDir, prefix);
        try (ProxyPool source = ProxyPool.builder().background(false).build();
                ControlRole control = RedisE2e.control(redis, source)) {
            source.addProxies(RedisE2e.proxies(3, Instant.now()));
            control.publishIfChanged();
            try (ProxyPoolServer worker = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .role(ServeRole.WORKER)
                            .configDir(workerDir)
                            .start();
                    HttpClient http = HttpClient.newHttpClient()) {
                String base = "http://127.0.0.1:" + worker.apiPort();
                String text = Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the worker to hold the control plane's snapshot",
                                () -> scrape(http, base),
                                t -> t.lines()
                                        .anyMatch(l -> l.startsWith("proxypool_snapshot_validity_remaining_seconds")
                                                && !l.endsWith("NaN")));
                assertCleanExposition(text);
                return text;
            }
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    /** promtool accepts it, and every label is one of the closed set. */
    private void assertCleanExposition(String text) throws Exception {
        Path file = Files.createTempFile(dir, "exposition", ".txt");
        Files.writeString(file, text);
        promtool(dir, file, "check", "metrics");
        Set<String> labels = new TreeSet<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("proxypool_")) {
                Matcher m = LABEL_NAME.matcher(line.substring(0, Math.max(0, line.lastIndexOf(' '))));
                while (m.find()) {
                    labels.add(m.group(1));
                }
            }
        }
        assertTrue(
                LABELS.containsAll(labels),
                "only low-cardinality labels on proxypool_ metrics (never a proxy or a host): " + labels);
        assertTrue(!text.contains("alice-secret") && !text.contains("alice-token"), "no secret in the exposition");
    }

    private static int gatewayGet(HttpClient gateway, URI uri, String route) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(15)).header("Proxy-Authorization", ALICE);
        if (route != null) {
            b.header("X-Route", route);
        }
        return gateway.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String scrape(HttpClient http, String base) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/observe/metrics"))
                        .header("Accept", "text/plain")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static Set<String> sampleNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.lines().toList()) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int end = line.indexOf('{');
                names.add(line.substring(0, end >= 0 ? end : line.indexOf(' ')));
            }
        }
        return names;
    }

    private static String proxyLine(int port, String kind) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\", \"labels\": {\"kind\": \""
                + kind + "\"}, \"maxConcurrency\": 20}\n";
    }

    /**
     * Runs promtool (Debian's {@code prometheus} package; {@code .ci/run} installs it) in
     * {@code workDir}, with {@code stdin} as its input when given; fails on a non-zero exit with its
     * output. Bounded: 60 s.
     */
    private static String promtool(Path workDir, Path stdin, String... args) throws Exception {
        String exe = null;
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "promtool"))) {
                exe = Path.of(d, "promtool").toString();
                break;
            }
        }
        if (exe == null) {
            fail("promtool is not installed: it checks the Prometheus exposition and the alert rules. Install "
                    + "Debian's prometheus package (apt-get install -y prometheus); .ci/run does");
        }
        List<String> cmd = new ArrayList<>(List.of(exe));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        if (stdin != null) {
            pb.redirectInput(stdin.toFile());
        }
        Path output = Files.createTempFile("promtool", ".out");
        Path errors = Files.createTempFile("promtool", ".err");
        pb.redirectOutput(output.toFile()).redirectError(errors.toFile());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("promtool " + String.join(" ", args) + " did not finish within 60 s");
        }
        String out = Files.readString(output) + Files.readString(errors);
        Files.delete(output);
        Files.delete(errors);
        assertEquals(0, p.exitValue(), "promtool " + String.join(" ", args) + " failed:\n" + out);
        return out;
    }

    /** The directory holding README.md and proxypool-core, above the module the test runs in. */
    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("ops"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "repository root (with ops/) not found above " + Path.of("").toAbsolutePath());
    }
}
