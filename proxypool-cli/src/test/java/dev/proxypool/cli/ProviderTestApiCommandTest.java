package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.TestPorts;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proxypool provider test NAME --api URL --token T}: the dry run of a provider that exists only
 * in a running server's configuration in PostgreSQL (created through the Admin API after the start;
 * the file knows none of them), done by that server with its own files and validator: a good provider
 * (candidates, and two validated through a real fake proxy), one whose answer drops everything (each
 * reason counted, exit 1) and one whose fetch fails (exit 1, the error in words).
 */
class ProviderTestApiCommandTest {

    private static final String TOKEN = "provider-test-admin-token-0123456789";
    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

    @TempDir
    static Path dir;

    static String schema;
    static FakeHttpProxy proxyA;
    static FakeHttpProxy proxyB;
    static ProxyPoolServer server;
    static Path cfg;
    static String api;

    @BeforeAll
    static void start() throws Exception {
        schema = "pp_test_" + HexFormat.of().formatHex(SecureRandom.getSeed(6));
        sql("CREATE SCHEMA " + schema);
        // exits other than the client's own address: the validator's direct-address check passes
        proxyA = FakeHttpProxy.builder()
                .outboundFrom(InetAddress.ofLiteral("127.0.0.2"))
                .start();
        proxyB = FakeHttpProxy.builder()
                .outboundFrom(InetAddress.ofLiteral("127.0.0.2"))
                .start();
        Files.writeString(
                dir.resolve("good.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + proxyA.port() + ", \"protocol\": \"http\"}\n"
                        + "{\"host\": \"127.0.0.1\", \"port\": " + proxyB.port() + ", \"protocol\": \"http\"}\n");
        Files.writeString(dir.resolve("bad.jsonl"), """
                {"port": 8080, "protocol": "http"}
                {"host": "203.0.113.5", "port": 70000, "protocol": "http"}
                {"host": "203.0.113.6", "port": 70001, "protocol": "http"}
                {"host": "203.0.113.7", "port": 8080, "protocol": "gopher"}
                """);
        cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                admin: { token: %s }
                database: { type: postgres, url: "%s?currentSchema=%s", user: postgres }
                health: { active: { enabled: false } }
                """.formatted(TOKEN, PG, schema));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
        api = "http://127.0.0.1:" + server.apiPort();
        int closed = TestPorts.closedPort();
        admin(
                "/providers",
                "{\"name\": \"good\", \"type\": \"jsonl_inventory\", \"path\": \"" + dir.resolve("good.jsonl") + "\"}");
        admin(
                "/providers",
                "{\"name\": \"drops\", \"type\": \"jsonl_inventory\", \"path\": \"" + dir.resolve("bad.jsonl") + "\"}");
        admin(
                "/providers",
                "{\"name\": \"down\", \"type\": \"text_list\", \"protocol\": \"http\","
                        + " \"url\": \"http://127.0.0.1:" + closed + "/list\"}");
        admin("/upstreams", "{\"name\": \"good-up\", \"provider\": \"good\", \"validate\": false}");
        admin("/upstreams", "{\"name\": \"drops-up\", \"provider\": \"drops\", \"validate\": false}");
        admin("/upstreams", "{\"name\": \"down-up\", \"provider\": \"down\", \"validate\": false}");
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {server, proxyA, proxyB}) {
            if (c != null) {
                c.close();
            }
        }
        if (schema != null) {
            sql("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(PG, "postgres", "");
                Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }

    private static void admin(String path, String json) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(api + "/v1/admin" + path))
                            .header("Authorization", "Bearer " + TOKEN)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(json))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, r.statusCode(), path + " " + json + ": " + r.body());
        }
    }

    @Test
    void aGoodProviderOfTheServersConfigurationIsFetchedAndValidatedByTheServer() {
        // the file knows no such provider: only the server's configuration in PostgreSQL has it
        CliRunner.Run local = run("provider", "test", "good", "--config", cfg.toString());
        assertEquals(Main.EXIT_USAGE, local.exit(), local.err());

        long before = proxyA.requests() + proxyB.requests();
        CliRunner.Run r = run("provider", "test", "good", "--api", api, "--token", TOKEN, "--validate", "2");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).matches("PROTOCOL +ADDRESS +LABELS +EXPIRES"), r.out());
        assertTrue(lines.get(1).matches("http +127\\.0\\.x\\.x:\\d+ +- +-"), r.out());
        assertTrue(lines.get(2).matches("http +127\\.0\\.x\\.x:\\d+ +- +-"), r.out());
        assertTrue(lines.get(3).isEmpty(), "two candidates: " + r.out());
        assertTrue(r.out().contains("good/good-up: success, 2 candidate(s), 0 dropped"), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("PROTOCOL +ADDRESS +VERDICT +LATENCY_MS +EXIT_IP +REASON")),
                r.out());
        assertEquals(2, lines.stream().filter(l -> l.contains(" elite ")).count(), r.out());
        assertTrue(proxyA.requests() + proxyB.requests() >= before + 2, "the server's validator went through both");

        CliRunner.Run json = run("provider", "test", "good", "--api", api + "/", "--token", TOKEN, "--json");
        assertEquals(Main.EXIT_OK, json.exit(), json.err());
        JsonNode v = JsonCodec.read(json.out(), JsonCodec.Nesting.FEED);
        assertEquals("success", v.path("outcome").asText());
        assertEquals("good-up", v.path("upstream").asText());
        assertEquals(2, v.path("candidates").size(), json.out());
        assertFalse(json.out().contains("127.0.0.1"), "addresses are masked: " + json.out());
    }

    @Test
    void aProviderWhoseAnswerDropsEverythingCountsEachReasonAndExitsOne() {
        CliRunner.Run table = run("provider", "test", "drops", "--api", api, "--token", TOKEN);
        assertEquals(Main.EXIT_ERROR, table.exit(), table.out() + table.err());
        assertEquals(
                List.of(
                        "DROP_REASON        COUNT",
                        "invalid_protocol   1",
                        "missing_host       1",
                        "port_out_of_range  2"),
                table.out().lines().toList().subList(0, 4),
                table.out());
        assertEquals(
                List.of("proxypool provider test: provider 'drops' gave no candidate (4 dropped: {invalid_protocol=1,"
                        + " missing_host=1, port_out_of_range=2})"),
                table.errLines());

        CliRunner.Run json = run("provider", "test", "drops", "--api", api, "--token", TOKEN, "--json");
        assertEquals(Main.EXIT_ERROR, json.exit(), json.err());
        JsonNode v = JsonCodec.read(json.out(), JsonCodec.Nesting.FEED);
        assertEquals("empty", v.path("outcome").asText());
        assertEquals(0, v.path("candidates").size());
        assertEquals(1, v.path("drops").path("missing_host").asInt());
        assertEquals(2, v.path("drops").path("port_out_of_range").asInt());
        assertEquals(1, v.path("drops").path("invalid_protocol").asInt());
    }

    @Test
    void aFetchThatFailsExitsOneWithTheErrorInWords() {
        CliRunner.Run r = run("provider", "test", "down", "--api", api, "--token", TOKEN);
        assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("down/down-up: error, 0 candidate(s)"), r.out());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(
                r.errLines()
                        .get(0)
                        .startsWith("proxypool provider test: fetch of provider 'down' (upstream down-up)"
                                + " failed: network: "),
                r.err());
    }

    @Test
    void anUnknownProviderOrUpstreamOrAWrongTokenIsAUsageErrorInTheServersWords() {
        CliRunner.Run p = run("provider", "test", "nope", "--api", api, "--token", TOKEN);
        assertEquals(Main.EXIT_USAGE, p.exit(), p.err());
        assertEquals(List.of("proxypool provider test: 404 not_found: no provider named 'nope'"), p.errLines());
        CliRunner.Run u = run("provider", "test", "good", "--api", api, "--token", TOKEN, "--upstream", "x");
        assertEquals(Main.EXIT_USAGE, u.exit(), u.err());
        assertEquals(
                List.of("proxypool provider test: 400 invalid_request: upstream: no upstream 'x' of provider 'good'"
                        + " (upstreams: good-up)"),
                u.errLines());
        CliRunner.Run t = run("provider", "test", "good", "--api", api, "--token", "wrong-token-0123456789");
        assertEquals(Main.EXIT_USAGE, t.exit(), t.err());
        assertTrue(t.err().contains("401"), t.err());
        CliRunner.Run none = run(
                "provider", "test", "good", "--api", "http://127.0.0.1:" + TestPorts.closedPort(), "--token", TOKEN);
        assertEquals(Main.EXIT_ERROR, none.exit(), none.err());
        assertTrue(none.err().contains("cannot reach the server at"), none.err());
    }
}
