package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.cli.bench.capacity.FailureShares;
import dev.proxypool.cli.bench.capacity.ProfileFile;
import dev.proxypool.cli.bench.capacity.RttDistribution;
import dev.proxypool.cli.bench.capacity.SimUpstream;
import dev.proxypool.cli.bench.capacity.TrafficProfile;
import dev.proxypool.sdk.json.JsonCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proxypool bench capacity}: each run starts its simulated upstreams and a real gateway in
 * this JVM and drives it over real sockets, open loop.
 */
@Tag("slow")
class BenchCapacityCommandTest {

    @TempDir
    Path dir;

    private static JsonNode json(CliRunner.Run r) {
        return JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
    }

    @Test
    void theSimulatedRoundTripIsHonouredEndToEndMinusGatewayLatencyWithinTenPercentOfTheMedian() {
        CliRunner.Run r = run(
                "bench",
                "capacity",
                "--rtt",
                "lognormal:100ms,130ms",
                "--refuse-share",
                "0",
                "--no-tls",
                "--tunnel-duration",
                "0s",
                "--start-rate",
                "40",
                "--step",
                "0",
                "--step-duration",
                "5s",
                "--warmup",
                "2s",
                "--p99",
                "5s",
                "--max-error-rate",
                "5%",
                "--json");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        JsonNode step = json(r).path("steps").get(0);
        assertTrue(step.path("ok").asLong() >= 150, step.toString());
        double endToEnd = step.path("endToEndLatencyMs").path("p50").asDouble(-1);
        double added = step.path("addedLatencyMs").path("p50").asDouble(-1);
        // what the gateway path took out of the end-to-end time is the simulated round trip
        assertEquals(100, endToEnd - added, 10, step.toString());
        assertEquals(100, step.path("upstreamRttMedianMs").asDouble(-1), 10, step.toString());
        assertTrue(added >= 0 && added < endToEnd, step.toString());
    }

    @Test
    void anSloThatCannotBeMetReportsNotMetAtAnyStepAndExitsOne() {
        CliRunner.Run r = run(
                "bench",
                "capacity",
                "--rtt",
                "fixed:20ms",
                "--refuse-share",
                "0.5",
                "--no-tls",
                "--tunnel-duration",
                "0s",
                "--start-rate",
                "20",
                "--step",
                "20",
                "--max-steps",
                "3",
                "--step-duration",
                "1s",
                "--warmup",
                "0s",
                "--max-error-rate",
                "0");
        assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("measured_worker_qps: SLO not met at any step (stopped: slo_broken)"), r.out());
        assertTrue(r.err().contains("the SLO was not met at any step"), r.err());
        assertTrue(r.err().contains("step 1: 20/s offered"), r.err());
        assertFalse(r.err().contains("step 2:"), "stepping stops at the first broken step: " + r.err());
        assertFalse(r.out().contains("proxypool capacity --peak-qps"), r.out());
    }

    @Test
    void theDefaultProfileWithTlsAuthAndSocksPrintsTheDocumentedJsonFields() {
        CliRunner.Run r = run(
                "bench",
                "capacity",
                "--rtt",
                "fixed:50ms",
                "--refuse-share",
                "0",
                "--tunnel-duration",
                "100ms",
                "--start-rate",
                "20",
                "--step",
                "20",
                "--max-steps",
                "2",
                "--step-duration",
                "2s",
                "--warmup",
                "2s",
                "--p99",
                "5s",
                "--max-error-rate",
                "5%",
                "--json");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        JsonNode o = json(r);
        for (String field : List.of(
                "bench",
                "gateway",
                "profile",
                "slo",
                "steps",
                "measured_worker_qps",
                "sloMet",
                "stopReason",
                "peakOpenTunnels",
                "memoryPerTunnelBytes",
                "capacityCommand")) {
            assertTrue(o.has(field), field + " in " + o);
        }
        assertEquals("capacity", o.path("bench").asText());
        assertEquals(40, o.path("measured_worker_qps").asDouble(), 0.001, o.toString());
        assertEquals("max_steps", o.path("stopReason").asText(), o.toString());
        assertTrue(o.path("capacityCommand").asText().contains("--measured-worker-qps 40"), o.toString());
        assertEquals(2, o.path("steps").size());
        JsonNode step = o.path("steps").get(1);
        for (String field : List.of(
                "step",
                "offeredRate",
                "achievedRate",
                "arrivals",
                "ok",
                "errors",
                "errorRate",
                "errorsByReason",
                "addedLatencyMs",
                "endToEndLatencyMs",
                "upstreamRttMedianMs",
                "peakOpenConnections",
                "peakOpenTunnels",
                "workerCpuPercent",
                "workerRssBytes",
                "meetsSlo")) {
            assertTrue(step.has(field), field + " in " + step);
        }
        for (String p : List.of("p50", "p95", "p99", "p999")) {
            assertTrue(step.path("addedLatencyMs").path(p).asDouble(-1) >= 0, step.toString());
            assertTrue(step.path("endToEndLatencyMs").path(p).asDouble(-1) >= 50, step.toString());
        }
        assertEquals(40, step.path("offeredRate").asDouble(), 0.001);
        assertEquals(0, step.path("errors").asLong(-1), step.toString());
        assertTrue(step.path("peakOpenTunnels").asInt() > 0, step.toString());
        assertTrue(step.path("workerRssBytes").asLong() > 0, step.toString());
        assertTrue(step.path("meetsSlo").asBoolean(), step.toString());
        assertTrue(r.err().contains("step 2: 40/s offered"), r.err());
    }

    @Test
    void aTargetThatIsNotThisMachineIsRefusedWithoutAllowRemoteTarget() {
        CliRunner.Run r =
                run("bench", "capacity", "--gateway", "192.0.2.1:8080", "--socks-share", "0", "--http-share", "0.3");
        assertEquals(Main.EXIT_USAGE, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("is not loopback or an address of this machine"), r.err());
        assertTrue(r.err().contains("--allow-remote-target"), r.err());
    }

    @Test
    void unboundedOrBadStepSettingsAreUsageErrors() {
        assertEquals(
                Main.EXIT_USAGE, run("bench", "capacity", "--max-steps", "101").exit());
        assertEquals(
                Main.EXIT_USAGE, run("bench", "capacity", "--max-time", "3h").exit());
        assertEquals(
                Main.EXIT_USAGE,
                run("bench", "capacity", "--connect-share", "0.9").exit());
        assertEquals(
                Main.EXIT_USAGE,
                run("bench", "capacity", "--rtt", "gaussian:1ms").exit());
    }

    @Test
    void aRunningGatewayIsDrivenWithItsCredentialsAndAProfileFile() throws Exception {
        Files.writeString(dir.resolve("mix.yaml"), """
                # half tunnels, half keep-alive HTTP with 5 requests per connection
                connect: 0.5
                http: 50%
                socks: 0
                requestsPerConnection: 5
                responseBytes: 1000
                tunnelDuration: 0s
                rtt: fixed:30ms
                refuseShare: 0
                tls: false
                """);
        TrafficProfile profile = ProfileFile.resolve(ProfileFile.read(dir.resolve("mix.yaml")));
        assertEquals(0.5, profile.httpShare(), 1e-9);
        assertEquals(5, profile.requestsPerConnection());
        try (CapacityRig rig = CapacityRig.withGateway(profile, 2, null)) {
            CliRunner.Run r = run(
                    "bench",
                    "capacity",
                    "--gateway",
                    "127.0.0.1:" + rig.server().gatewayPort(),
                    "--api",
                    "http://127.0.0.1:" + rig.server().apiPort(),
                    "--user",
                    CapacityRig.CLIENT + ":" + CapacityRig.CLIENT_SECRET,
                    "--worker-pid",
                    Long.toString(ProcessHandle.current().pid()),
                    "--profile",
                    dir.resolve("mix.yaml").toString(),
                    "--start-rate",
                    "30",
                    "--step",
                    "0",
                    "--step-duration",
                    "2s",
                    "--warmup",
                    "1s",
                    "--p99",
                    "5s",
                    "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            JsonNode o = json(r);
            assertEquals(
                    "127.0.0.1:" + rig.server().gatewayPort(), o.path("gateway").asText());
            assertTrue(
                    o.path("profile").asText().startsWith("50% CONNECT, 50% HTTP (5/conn), 0% SOCKS5"), o.toString());
            JsonNode step = o.path("steps").get(0);
            assertEquals(0, step.path("errors").asLong(-1), step.toString());
            assertEquals(30, step.path("upstreamRttMedianMs").asDouble(-1), 3, step.toString());
            assertTrue(step.path("workerRssBytes").asLong() > 0, step.toString());
            // the wrong secret: every arrival is refused by the gateway's auth, and said so by reason
            CliRunner.Run bad = run(
                    "bench",
                    "capacity",
                    "--gateway",
                    "127.0.0.1:" + rig.server().gatewayPort(),
                    "--user",
                    CapacityRig.CLIENT + ":wrong-secret-0123",
                    "--profile",
                    dir.resolve("mix.yaml").toString(),
                    "--start-rate",
                    "10",
                    "--step",
                    "0",
                    "--step-duration",
                    "1s",
                    "--warmup",
                    "0s",
                    "--json");
            assertEquals(Main.EXIT_ERROR, bad.exit(), bad.out() + bad.err());
            JsonNode reasons = json(bad).path("steps").get(0).path("errorsByReason");
            assertTrue(reasons.toString().contains("407"), reasons.toString());
        }
    }

    @Test
    void aGatewayStartedFromConfigIsDrivenThroughItsOwnUpstreams() throws Exception {
        try (SimUpstream upstream =
                SimUpstream.start(new RttDistribution.Fixed(Duration.ofMillis(40)), new FailureShares(0, 0, 0), 7)) {
            Files.writeString(
                    dir.resolve("up.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port() + ", \"protocol\": \"http\"}\n");
            Files.writeString(dir.resolve("proxypool.yaml"), """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    store: { type: memory }
                    providers: [{ name: up, type: jsonl_inventory, path: up.jsonl }]
                    upstreams: [{ name: up, provider: up, validate: false }]
                    routings: [{ name: all, strategy: roundRobin, upstreams: [up] }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [443], allowAnonymous: true }
                    """);
            CliRunner.Run r = run(
                    "bench",
                    "capacity",
                    "--config",
                    dir.resolve("proxypool.yaml").toString(),
                    "--no-tls",
                    "--no-auth",
                    "--socks-share",
                    "0",
                    "--http-share",
                    "0.3",
                    "--tunnel-duration",
                    "0s",
                    "--start-rate",
                    "20",
                    "--step",
                    "0",
                    "--step-duration",
                    "2s",
                    "--warmup",
                    "1s",
                    "--p99",
                    "5s",
                    "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            JsonNode o = json(r);
            assertTrue(o.path("gateway").asText().contains("proxypool.yaml"), o.toString());
            JsonNode step = o.path("steps").get(0);
            assertEquals(0, step.path("errors").asLong(-1), step.toString());
            // the round trip is the config's upstream's (40 ms), not the simulated ones the command started
            assertEquals(40, step.path("upstreamRttMedianMs").asDouble(-1), 4, step.toString());
        }
    }

    @Test
    void aProfileFileWithAnUnknownKeyIsAUsageError() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "connect: 0.7\nhttps: 0.3\n");
        CliRunner.Run r =
                run("bench", "capacity", "--profile", dir.resolve("bad.yaml").toString());
        assertEquals(Main.EXIT_USAGE, r.exit(), r.err());
        assertTrue(r.err().contains("unknown key 'https'"), r.err());
        assertEquals(Map.of("connect", "0.7"), ProfileFile.read(writeAndReturn("connect: 0.7\n")));
    }

    private Path writeAndReturn(String yaml) throws Exception {
        Path p = dir.resolve("one.yaml");
        Files.writeString(p, yaml);
        return p;
    }
}
