package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.server.gateway.ExchangeResult;
import dev.proxypool.server.gateway.GatewayErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37 item 16: {@code GET /v1/admin/flags} raises a flag for an upstream whose healthy share fell
 * below {@code admin.flags.healthyShare} (49 of 50 disabled, not only at 0 healthy), and for a routing
 * whose recent requests mostly answered {@code no_candidate}; each flag carries its evidence.
 */
class RedFlagsApiTest {

    @TempDir
    Path dir;

    private static ExchangeRecord exchange(String routing, String reason) {
        boolean failed = reason != null;
        return new ExchangeRecord(
                "http",
                "10.1.2.3",
                "alice",
                "GET",
                failed ? 503 : 200,
                reason,
                routing,
                failed ? "none" : "vendor",
                failed ? "none" : "p00001",
                failed ? 0 : 1,
                1_000_000,
                failed ? ExchangeResult.REJECTED : ExchangeResult.OK);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> flags(AdminFixture f) {
        return (List<Map<String, Object>>) f.get("/flags").json().get("flags");
    }

    @Test
    void anUpstreamWithFortyNineOfFiftyDisabledIsFlaggedWithItsHealthCounts() {
        List<Proxy> proxies = new ArrayList<>(AdminFixture.proxies(50, "vendor"));
        try (AdminFixture f =
                AdminFixture.options().activity(100).proxies(proxies).start()) {
            assertEquals(List.of(), flags(f), "all healthy: no flag");
            long now = f.clock.read();
            for (int i = 1; i < 46; i++) { // 45 rejected their credentials
                EmbeddedProxyPool.engineOf(f.pool)
                        .runtime(String.format("p%05d", i))
                        .orElseThrow()
                        .health()
                        .recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, now);
            }
            for (int i = 46; i < 50; i++) { // 4 an operator disabled (out of the snapshot)
                assertEquals(
                        200,
                        f.post(String.format("/proxies/p%05d/disable", i), null).status());
            }
            List<Map<String, Object>> raised = flags(f);
            assertEquals(1, raised.size(), raised.toString());
            Map<String, Object> u = raised.getFirst();
            assertEquals("upstream_unhealthy", u.get("kind"));
            assertEquals("warn", u.get("severity"), "one proxy still answers: not the zero-healthy alarm");
            assertEquals("vendor", u.get("upstream"));
            assertEquals(1, ((Number) u.get("healthy")).intValue());
            assertEquals(49, ((Number) u.get("disabled")).intValue());
            assertEquals(50, ((Number) u.get("total")).intValue());
            assertEquals(
                    "Upstream vendor: 1 of 50 proxies healthy (2 %, below 50 %): 0 cooling, 49 disabled.",
                    u.get("message"));
        }
    }

    @Test
    void theHealthyShareThresholdIsConfigurable() {
        try (AdminFixture f = AdminFixture.options()
                .proxies(AdminFixture.proxies(10, "vendor"))
                .flags(new ProxyPoolConfig.Admin.Flags(0.95, 0.5, 10))
                .start()) {
            EmbeddedProxyPool.engineOf(f.pool)
                    .runtime("p00003")
                    .orElseThrow()
                    .health()
                    .recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, f.clock.read());
            List<Map<String, Object>> raised = flags(f);
            assertEquals(1, raised.size(), "9 of 10 is below 95 %: " + raised);
            assertEquals(
                    0.95,
                    ((Number) ((Map<?, ?>) f.get("/flags").json().get("thresholds")).get("healthyShare"))
                            .doubleValue());
        }
    }

    @Test
    void aRoutingWhoseRecentRequestsMostlyFindNoProxyIsFlagged() {
        try (AdminFixture f = AdminFixture.options()
                .activity(500)
                .proxies(AdminFixture.proxies(4, "vendor"))
                .start()) {
            for (int i = 0; i < 9; i++) {
                f.activity.ended(exchange("empty", GatewayErrors.NO_CANDIDATE));
            }
            assertEquals(List.of(), flags(f), "9 requests: fewer than admin.flags.minRequests");
            for (int i = 0; i < 30; i++) {
                f.clock.advance(Duration.ofMillis(100));
                f.activity.ended(exchange("empty", GatewayErrors.NO_CANDIDATE));
                f.activity.ended(exchange("shop", null));
                f.activity.ended(exchange("mixed", i % 3 == 0 ? GatewayErrors.NO_CANDIDATE : null));
            }
            List<Map<String, Object>> raised = flags(f);
            assertEquals(1, raised.size(), "only the routing that mostly fails: " + raised);
            Map<String, Object> r = raised.getFirst();
            assertEquals("routing_no_candidate", r.get("kind"));
            assertEquals("empty", r.get("routing"));
            assertEquals(39, ((Number) r.get("requests")).intValue());
            assertEquals(39, ((Number) r.get("noCandidate")).intValue());
            assertEquals(1.0, ((Number) r.get("share")).doubleValue());

            f.clock.advance(Duration.ofMinutes(RedFlags.WINDOW_MINUTES).plusSeconds(1));
            assertEquals(List.of(), flags(f), "only recent requests count");
        }
    }

    @Test
    void theThresholdsAreConfigurationKeys() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                admin: { token: admin-token-0123456789, flags: { healthyShare: 0.25, noCandidateShare: 0.8, minRequests: 50 } }
                """);
        ProxyPoolConfig c = ConfigLoader.load(cfg, Map.of());
        assertEquals(new ProxyPoolConfig.Admin.Flags(0.25, 0.8, 50), c.admin().flags());
        Files.writeString(cfg, "admin: { token: admin-token-0123456789 }\n");
        assertEquals(
                ProxyPoolConfig.Admin.Flags.DEFAULTS,
                ConfigLoader.load(cfg, Map.of()).admin().flags());
        Files.writeString(cfg, "admin: { flags: { healthyShare: 1.5 } }\n");
        Exception e =
                org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> ConfigLoader.load(cfg, Map.of()));
        assertTrue(e.getMessage().contains("admin.flags.healthyShare"), e.getMessage());
    }
}
