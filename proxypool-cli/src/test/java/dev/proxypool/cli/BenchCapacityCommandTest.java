package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code proxypool bench capacity}: each run starts its simulated upstreams and a real gateway in
 * this JVM and drives it over real sockets, open loop.
 */
class BenchCapacityCommandTest {

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
}
