package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool bench}: real load through a running server's gateway and Distribution API. */
@Tag("slow")
class BenchCommandTest {

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeOrigin tlsOrigin;
    static FakeHttpProxy upstream;
    static ApiServer api;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        tlsOrigin = FakeOrigin.builder().tls().start();
        upstream = FakeHttpProxy.start();
        Files.createDirectories(dir.resolve("gw"));
        api = ApiServer.start(
                dir.resolve("gw"),
                "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                        + ", \"protocol\": \"http\", \"maxConcurrency\": 50}\n",
                """
                security: { allowDestinations: ["127.0.0.0/8"], allowAnonymous: true, connectPorts: [443, %d] }
                routings: [{ name: all, strategy: roundRobin }]
                """.formatted(tlsOrigin.port()));
    }

    @AfterAll
    static void stop() {
        api.close();
        upstream.close();
        origin.close();
        tlsOrigin.close();
    }

    private static JsonNode json(CliRunner.Run r) {
        return JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
    }

    @Test
    void gatewayForTwoSecondsWithFourConnectionsPrintsAResult() {
        CliRunner.Run r = run(
                "bench",
                "gateway",
                "--proxy",
                api.gatewayUrl(),
                "--url",
                origin.url("/"),
                "--connections",
                "4",
                "--duration",
                "2s",
                "--json");
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        JsonNode o = json(r);
        assertEquals("gateway", o.path("bench").asText(""));
        assertEquals(4, o.path("connections").asInt(-1));
        long requests = o.path("requests").asLong(-1);
        assertTrue(requests > 20, r.out());
        assertEquals(requests, o.path("ok").asLong(-1) + o.path("errors").asLong(-1));
        assertEquals(0, o.path("errors").asLong(-1), r.out());
        double seconds = o.path("durationSeconds").asDouble(-1);
        assertTrue(seconds >= 2.0 && seconds < 6, r.out());
        JsonNode latency = o.get("latencyMs");
        double p50 = latency.path("p50").asDouble(-1);
        double p99 = latency.path("p99").asDouble(-1);
        assertTrue(p50 > 0 && p50 <= p99 && p99 <= latency.path("max").asDouble(-1), latency.toString());
        assertTrue(o.path("requestsPerSecond").asDouble(0) > 0);
        assertTrue(r.err().contains("bench 1/2 s: "), r.err());
    }

    @Test
    void gatewayErrorsAreCountedByKind() {
        CliRunner.Run r = run(
                "bench",
                "gateway",
                "--proxy",
                api.gatewayUrl(),
                "--url",
                origin.url("/status/500"),
                "--connections",
                "2",
                "--duration",
                "1s");
        assertEquals(Main.EXIT_ERROR, r.exit(), "nothing succeeded: " + r.out());
        assertTrue(r.out().matches("(?s).*errors\\s+\\d+ \\(http_500 \\d+\\).*"), r.out());
        assertTrue(r.out().contains("ok          0"), r.out());
        assertTrue(r.err().contains("proxypool bench gateway: no request succeeded"), r.err());
    }

    /** A dead gateway port: every attempt fails in microseconds; the report counts failures, never a req/s of them. */
    @Test
    void aDeadGatewayIsReportedAsFailuresNotAsARate() {
        int dead = TestPorts.closedPort();
        CliRunner.Run r = run(
                "bench",
                "gateway",
                "--proxy",
                "http://127.0.0.1:" + dead,
                "--url",
                origin.url("/"),
                "--connections",
                "2",
                "--duration",
                "2s");
        assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("ok          0 (no rate: every request failed)"), r.out());
        assertTrue(r.out().matches("(?s).*requests\\s+(\\d+) \\(0 ok, \\1 failed\\).*"), r.out());
        assertFalse(r.out().contains("req/s"), "no rate of failed requests: " + r.out());
        assertTrue(r.out().contains("latency ms  none (no request succeeded)"), r.out());
        assertTrue(r.err().contains("bench 1/2 s: 0 ok (0 req/s now), "), r.err());
        assertTrue(r.err().contains("proxypool bench gateway: no request succeeded"), r.err());
    }

    @Test
    void gatewayChunkedBodiesAndHttpsTunnels() {
        CliRunner.Run chunked = run(
                "bench",
                "gateway",
                "--proxy",
                api.gatewayUrl(),
                "--url",
                origin.url("/chunked?n=20000"),
                "--connections",
                "2",
                "--duration",
                "1s",
                "--json");
        assertEquals(Main.EXIT_OK, chunked.exit(), chunked.err());
        assertEquals(0, json(chunked).path("errors").asLong(-1), chunked.out());

        CliRunner.Run tls = run(
                "bench",
                "gateway",
                "--proxy",
                api.gatewayUrl(),
                "--url",
                tlsOrigin.url("/bytes?n=100"),
                "--connections",
                "2",
                "--duration",
                "1s",
                "--insecure",
                "--json");
        assertEquals(Main.EXIT_OK, tls.exit(), tls.err() + tls.out());
        JsonNode o = json(tls);
        assertEquals(0, o.path("errors").asLong(-1), tls.out());
        assertTrue(o.path("ok").asLong(0) > 2, tls.out());
    }

    @Test
    void extractionDrainsThePoolAndCountsShortAnswers() throws IOException {
        Path d = dir.resolve("ex");
        Files.createDirectories(d);
        try (ApiServer six = ApiServer.start(d, ApiServer.sixProxies(), "")) {
            // bob's quota is 2 proxies an hour: two come back, then every call is refused
            CliRunner.Run quota = run(
                    "bench",
                    "extraction",
                    "--api",
                    six.apiUrl(),
                    "--token",
                    ApiServer.BOB,
                    "--connections",
                    "1",
                    "--duration",
                    "500ms",
                    "--json");
            assertEquals(Main.EXIT_OK, quota.exit(), quota.err());
            JsonNode q = json(quota);
            assertEquals(2, q.path("proxiesExtracted").asLong(-1), quota.out());
            long refused = q.get("errorsByKind").path("quota_exceeded").asLong(0);
            assertTrue(refused > 0, quota.out());
            assertEquals(refused, q.path("errors").asLong(-1), quota.out());

            // alice takes the other four, then gets 200s with nothing in them
            CliRunner.Run r = run(
                    "bench",
                    "extraction",
                    "--api",
                    six.apiUrl(),
                    "--token",
                    ApiServer.ALICE,
                    "--connections",
                    "2",
                    "--duration",
                    "1s",
                    "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.err());
            JsonNode o = json(r);
            assertEquals("extraction", o.path("bench").asText(""));
            assertEquals(4, o.path("proxiesExtracted").asLong(-1), r.out());
            assertTrue(o.path("short").asLong(0) > 0, r.out());
            assertEquals(0, o.path("errors").asLong(-1), r.out());
        }
    }

    @Test
    void usageErrorsExitTwo() {
        String[][] cases = {
            {"bench"},
            {"bench", "gateway"},
            {"bench", "gateway", "--url", "ftp://x/"},
            {"bench", "gateway", "--url", "http://127.0.0.1/", "--connections", "0"},
            {"bench", "gateway", "--url", "http://127.0.0.1/", "--duration", "2h"},
            {"bench", "gateway", "--url", "http://127.0.0.1/", "--proxy", "socks5://127.0.0.1:1080"},
            {"bench", "gateway", "--url", "http://127.0.0.1/", "--user", "nocolon"},
            {"bench", "extraction", "--api", "http://127.0.0.1:1"},
            {"bench", "extraction", "--token", "t", "--count", "0"},
        };
        for (String[] args : cases) {
            CliRunner.Run r = run(args);
            assertEquals(Main.EXIT_USAGE, r.exit(), String.join(" ", args) + " -> " + r.err());
            assertTrue(r.errLines().getLast().startsWith("proxypool bench"), r.err());
        }
    }
}
