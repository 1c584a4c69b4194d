package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Operator disable/enable through HTTP: out of picks and extraction at once, audited, reversible. */
class DisableProxyTest {

    /** Proxy ids returned by {@code n} picks on the first routing, with counts. */
    private static Map<String, Integer> picks(AdminFixture f, int n) {
        RoutingRule rule = EmbeddedProxyPool.engineOf(f.pool).routings().getFirst();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < n; i++) {
            AcquireResult r = EmbeddedProxyPool.engineOf(f.pool).acquire(rule, AcquireRequest.forHost("shop.example"));
            if (r instanceof AcquireResult.Acquired a) {
                try (Lease lease = a.lease()) {
                    seen.merge(lease.proxyId(), 1, Integer::sum);
                }
            }
        }
        return seen;
    }

    @Test
    void disableRemovesTheProxyFromPicksAndIsAudited() {
        try (AdminFixture f =
                AdminFixture.options().proxies(AdminFixture.proxies(3, "lab")).start()) {
            assertEquals(3, picks(f, 300).size(), "all three serve before");

            AdminFixture.Response r = f.post("/proxies/p00001/disable", null);
            assertEquals(200, r.status(), r.body());
            assertEquals("disabled", r.json().get("state"));
            assertEquals("DISABLED", ((Map<?, ?>) r.json().get("health")).get("state"));
            assertEquals(
                    ProxyState.DISABLED,
                    EmbeddedProxyPool.engineOf(f.pool)
                            .store()
                            .get("p00001")
                            .orElseThrow()
                            .state());

            Map<String, Integer> after = picks(f, 300);
            assertFalse(after.containsKey("p00001"), "a disabled proxy is never picked: " + after);
            assertEquals(
                    300, after.values().stream().mapToInt(Integer::intValue).sum(), "the others carry everything");
            assertEquals(1, f.get("/proxies?state=disabled").list("proxies").size());

            Map<String, Object> audit = f.get("/audit").list("entries").getFirst();
            assertEquals("proxy.disable", audit.get("action"));
            assertEquals("proxy", audit.get("entityType"));
            assertEquals("p00001", audit.get("entityName"));
            assertEquals(Map.of("state", "available", "health", "HEALTHY"), audit.get("before"));
            assertEquals("disabled", ((Map<?, ?>) audit.get("after")).get("state"));

            assertEquals(200, f.post("/proxies/p00001/disable", null).status(), "disabling twice is fine");
            assertEquals(1, f.get("/audit").list("entries").size(), "and changes (and audits) nothing");

            AdminFixture.Response e = f.post("/proxies/p00001/enable", null);
            assertEquals(200, e.status(), e.body());
            assertEquals("available", e.json().get("state"));
            assertEquals("HEALTHY", ((Map<?, ?>) e.json().get("health")).get("state"));
            assertTrue(picks(f, 300).containsKey("p00001"), "enabled again, it serves again");
            List<Map<String, Object>> log = f.get("/audit").list("entries");
            assertEquals(
                    List.of("proxy.enable", "proxy.disable"),
                    log.stream().map(x -> x.get("action")).toList());
        }
    }

    /** Issue 37 item 14: enable is a transition of its own; the record, history and backoff stay. */
    @Test
    void enableKeepsTheHealthRecordAndChecksAFailingProxyOnceFirst() {
        try (AdminFixture f =
                AdminFixture.options().proxies(AdminFixture.proxies(3, "lab")).start()) {
            // disabled while healthy, then enabled: back at once, the record continues
            assertEquals(200, f.post("/proxies/p00001/disable", null).status());
            f.clock.advance(Duration.ofMinutes(2));
            AdminFixture.Response e = f.post("/proxies/p00001/enable", null);
            assertEquals(200, e.status(), e.body());
            Map<String, Object> record = healthRecord(f, "p00001");
            assertEquals("HEALTHY", record.get("state"));
            assertEquals("operator_enabled", record.get("reason"));
            assertEquals("operator", record.get("stage"));
            assertEquals(List.of("created", "operator", "operator_enabled"), reasons(record));

            // a cooling proxy: enable ends the cooldown with one recovery check, backoff kept
            ProxyHealth h = EmbeddedProxyPool.engineOf(f.pool)
                    .runtime("p00002")
                    .orElseThrow()
                    .health();
            long now = f.clock.read();
            while (h.state() == HealthState.HEALTHY) {
                h.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, now);
            }
            assertEquals(HealthState.COOLING, h.state());
            AdminFixture.Response cooled = f.post("/proxies/p00002/enable", null);
            assertEquals(200, cooled.status(), cooled.body());
            Map<String, Object> checked = healthRecord(f, "p00002");
            assertEquals("COOLING", checked.get("state"), "not full traffic before the check");
            assertEquals("operator_enabled", checked.get("reason"));
            assertEquals(1, ((Number) checked.get("backoffStep")).intValue(), "the backoff stays");
            assertEquals(List.of("created", "connect_timeout", "operator_enabled"), reasons(checked));
            assertEquals(Admission.PROBE, h.tryAdmit(f.clock.read()), "the next admission is the one check");
            h.recordSuccess(Admission.PROBE, 1_000_000, f.clock.read());
            assertEquals(HealthState.HEALTHY, h.state());
            assertTrue(h.status().slowStart(), "slow start applies");
            assertEquals(
                    List.of("proxy.enable", "proxy.enable", "proxy.disable"),
                    f.get("/audit").list("entries").stream()
                            .map(x -> x.get("action"))
                            .toList());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> healthRecord(AdminFixture f, String id) {
        return (Map<String, Object>) f.get("/proxies/" + id).json().get("healthRecord");
    }

    @SuppressWarnings("unchecked")
    private static List<String> reasons(Map<String, Object> record) {
        return ((List<Map<String, Object>>) record.get("transitions"))
                .stream().map(t -> (String) t.get("reason")).toList();
    }

    @Test
    void unknownProxiesAre404() {
        try (AdminFixture f =
                AdminFixture.options().proxies(AdminFixture.proxies(1, "lab")).start()) {
            AdminFixture.Response r = f.post("/proxies/nope/disable", null);
            assertEquals(404, r.status());
            assertEquals("no proxy with id 'nope'", r.message());
            assertEquals(404, f.post("/proxies/nope/enable", null).status());
            assertTrue(f.get("/audit").list("entries").isEmpty());
        }
    }
}
