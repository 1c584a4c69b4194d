package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool extract} against a real server: tables, JSON, exit codes, one-line errors. */
@Tag("slow")
class ExtractCommandTest {

    @TempDir
    static Path dir;

    static ApiServer api;

    @BeforeAll
    static void start() throws IOException {
        // plenty of proxies so the tests can share one server: 4 of US/http with credentials, 200 of FR
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= 4; i++) {
            inv.append("{\"host\": \"198.51.100.")
                    .append(i)
                    .append(
                            "\", \"port\": 8080, \"protocol\": \"http\","
                                    + " \"credentialRef\": \"vendor\", \"labels\": {\"country\": \"US\"}, \"ttlSeconds\": 3600}\n");
        }
        for (int i = 1; i <= 200; i++) {
            inv.append("{\"host\": \"192.0.2.")
                    .append(i)
                    .append("\", \"port\": 3128, \"protocol\": \"http\","
                            + " \"labels\": {\"country\": \"FR\", \"type\": \"dc\"}}\n");
        }
        api = ApiServer.start(dir, inv.toString(), "");
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static String[] extract(String... more) {
        String[] base = {"extract", "--api", api.apiUrl(), "--token", ApiServer.ALICE};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void theTableMasksAddressesAndHidesUrls() {
        CliRunner.Run r = run(extract("--count", "1", "--country", "US"));
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        assertTrue(r.out().contains("198.51.x.x:8080"), r.out());
        assertFalse(r.out().contains("198.51.100."), r.out());
        assertFalse(r.out().contains("p%3Ass"), r.out());
        assertTrue(
                r.out().lines().findFirst().orElseThrow().matches("ID\\s+HOST\\s+PROTOCOL\\s+COUNTRY\\s+TTL"), r.out());
        assertTrue(r.out().contains(" US "), r.out());
        assertTrue(r.out().matches("(?s).*\\b(59m\\d\\ds|1h00m)\\b.*"), r.out());
        assertTrue(r.out().contains("extracted 1 of 1"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void showUrlsPrintsTheUrlWithCredentials() {
        CliRunner.Run r = run(extract("--count", "1", "--country", "US", "--show-urls"));
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        assertTrue(r.out().matches("(?s).*http://us%40er:p%3Ass@198\\.51\\.100\\.\\d:8080.*"), r.out());
    }

    @Test
    void jsonIsOneObjectWithTheProxies() {
        CliRunner.Run r = run(extract(
                "--count",
                "2",
                "--country",
                "FR",
                "--label",
                "type=dc",
                "--protocol",
                "http",
                "--min-ttl",
                "60s",
                "--json"));
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        JsonNode o = JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
        assertEquals(2, o.path("requested").asInt(-1));
        assertEquals(2, o.path("extracted").asInt(-1));
        assertFalse(o.path("replayed").asBoolean(true));
        var proxies = o.get("proxies");
        assertEquals(2, proxies.size());
        for (JsonNode v : proxies) {
            JsonNode p = v;
            assertTrue(p.path("url").asText("").startsWith("http://192.0.2."), p.toString());
            assertEquals("FR", p.get("labels").path("country").asText(""));
            assertEquals(3128, p.path("port").asInt(-1));
        }
    }

    @Test
    void fewerThanRequestedExitsThree() {
        CliRunner.Run r = run(extract("--count", "50", "--country", "XX"));
        assertEquals(Main.EXIT_PARTIAL, r.exit(), r.err());
        assertTrue(r.out().contains("extracted 0 of 50 (fewer than requested)"), r.out());
    }

    @Test
    void insufficientForAllOrNothingExitsThreeWithOneLine() {
        CliRunner.Run r = run(extract("--count", "5", "--country", "XX", "--all-or-nothing"));
        assertEquals(Main.EXIT_PARTIAL, r.exit());
        assertEquals(
                java.util.List.of("proxypool extract: insufficient proxies: requested 5, available 0"), r.errLines());
        CliRunner.Run json = run(extract("--count", "5", "--country", "XX", "--all-or-nothing", "--json"));
        assertEquals(Main.EXIT_PARTIAL, json.exit());
        JsonNode o = JsonCodec.read(json.out(), JsonCodec.Nesting.FEED);
        assertEquals("insufficient_proxies", o.path("error").asText(""));
        assertEquals(0, o.path("available").asInt(-1));
    }

    @Test
    void theSameIdempotencyKeyReplays() {
        CliRunner.Run first =
                run(extract("--count", "1", "--country", "FR", "--idempotency-key", "cli-job-1", "--json"));
        CliRunner.Run again =
                run(extract("--count", "1", "--country", "FR", "--idempotency-key", "cli-job-1", "--json"));
        assertEquals(Main.EXIT_OK, again.exit(), again.err());
        JsonNode a = JsonCodec.read(first.out(), JsonCodec.Nesting.FEED);
        JsonNode b = JsonCodec.read(again.out(), JsonCodec.Nesting.FEED);
        assertTrue(b.path("replayed").asBoolean(false));
        assertEquals(a.get("proxies").toString(), b.get("proxies").toString());
        CliRunner.Run table = run(extract("--count", "1", "--country", "FR", "--idempotency-key", "cli-job-1"));
        assertTrue(table.out().contains("(replayed answer)"), table.out());
    }

    @Test
    void anUnreachableServerIsExitOneWithOneLineAndNoStackTrace() {
        String nowhere = "http://127.0.0.1:" + TestPorts.closedPort();
        CliRunner.Run r = run("extract", "--count", "1", "--api", nowhere, "--token", "t0k");
        assertEquals(Main.EXIT_ERROR, r.exit());
        assertEquals(
                java.util.List.of("proxypool extract: cannot reach " + nowhere + ": connection refused"), r.errLines());
        assertEquals("", r.out());

        CliRunner.Run verbose = run("--verbose", "extract", "--count", "1", "--api", nowhere, "--token", "t0k");
        assertEquals(Main.EXIT_ERROR, verbose.exit());
        assertTrue(verbose.err().contains("ServerUnreachable"), verbose.err());
        assertTrue(verbose.err().contains("\tat "), verbose.err());
        CliRunner.Run after = run("extract", "--count", "1", "--api", nowhere, "--token", "t0k", "--verbose");
        assertTrue(after.err().contains("\tat "), after.err());
    }

    @Test
    void serverErrorsAreExitOne() {
        CliRunner.Run unauthorized = run("extract", "--count", "1", "--api", api.apiUrl(), "--token", "wrong-token");
        assertEquals(Main.EXIT_ERROR, unauthorized.exit());
        assertEquals(1, unauthorized.errLines().size(), unauthorized.err());
        assertTrue(unauthorized.err().startsWith("proxypool extract: unauthorized"), unauthorized.err());
        assertFalse(unauthorized.err().contains("wrong-token"));

        api.store.down = true;
        try {
            CliRunner.Run down = run(extract("--count", "1"));
            assertEquals(Main.EXIT_ERROR, down.exit());
            assertEquals(
                    java.util.List.of("proxypool extract: the server's store is unavailable; nothing was extracted"),
                    down.errLines());
        } finally {
            api.store.down = false;
        }
    }

    @Test
    void usageErrorsExitTwoWithOneLine() {
        String[][] cases = {
            {"extract", "--api", "http://127.0.0.1:1", "--token", "t"}, // no --count
            {"extract", "--count", "x", "--token", "t"}, // not a number
            {"extract", "--count", "0", "--token", "t"}, // out of range
            {"extract", "--count", "1", "--protocol", "ftp", "--token", "t"}, // bad protocol
            {"extract", "--count", "1", "--min-ttl", "soon", "--token", "t"}, // bad duration
            {"extract", "--count", "1", "--label", "novalue", "--token", "t"}, // bad label
            {"extract", "--count", "1", "--api", "ftp://x", "--token", "t"}, // bad api
            {"extract", "--count", "1", "--api", api.apiUrl()}, // no token
            {"extract", "--count", "1", "--bogus", "--token", "t"}, // unknown option
        };
        for (String[] args : cases) {
            CliRunner.Run r = run(args);
            assertEquals(Main.EXIT_USAGE, r.exit(), String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.errLines().size(), String.join(" ", args) + " -> " + r.err());
            assertTrue(r.err().startsWith("proxypool extract: "), r.err());
        }
        // the server's own limit (maxCount 100) is also a usage error
        CliRunner.Run tooMany = run(extract("--count", "500"));
        assertEquals(Main.EXIT_USAGE, tooMany.exit());
        assertTrue(tooMany.err().startsWith("proxypool extract: invalid request: count"), tooMany.err());
    }

    @Test
    void helpShowsExamplesAndExitCodes() {
        CliRunner.Run r = run("extract", "--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("Examples:"), r.out());
        assertTrue(r.out().contains("proxypool extract --count 5"), r.out());
        assertTrue(r.out().contains("Exit codes:"), r.out());
        assertTrue(r.out().contains("PROXYPOOL_TOKEN"), r.out());
    }

    @Test
    void pointedAtTheGatewayPortItSaysSo() {
        java.util.Map<String, String> env =
                java.util.Map.of("PROXYPOOL_SERVER_GATEWAYPORT", "0", "PROXYPOOL_SERVER_APIPORT", "0");
        try (dev.proxypool.server.ProxyPoolServer server =
                ServerFactory.start(dev.proxypool.sdk.config.ConfigLoader.defaults(env), dir)) {
            String gateway = "http://127.0.0.1:" + server.gatewayPort();
            CliRunner.Run r = run("extract", "--count", "1", "--api", gateway, "--token", "t0123456789");
            assertEquals(Main.EXIT_ERROR, r.exit(), r.err());
            assertEquals(
                    java.util.List.of("proxypool extract: unexpected response HTTP 400: " + gateway
                            + " is the gateway listener (a forward proxy), not the REST API: use the server's API port"
                            + " (server.apiPort, default 9090)"),
                    r.errLines());
        }
    }
}
