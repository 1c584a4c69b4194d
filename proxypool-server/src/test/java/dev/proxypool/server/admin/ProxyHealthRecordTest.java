package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/admin/proxies/{id}}: the proxy with its health record (state, reason, stage, since,
 * cooldown end, backoff step, counters) and its last transitions with timestamps, over HTTP.
 */
class ProxyHealthRecordTest {

    private static void fail3(AdminFixture f, ProxyHealth h) {
        for (int i = 0; i < 3; i++) {
            long now = f.clock.read();
            Admission a = h.tryAdmit(now);
            h.recordFailure(a, FailureKind.CONNECT_TIMEOUT, now);
        }
    }

    @Test
    void showsTheCurrentStatusTheBackoffAndTheTransitionsWithTimestamps() {
        try (AdminFixture f =
                AdminFixture.options().proxies(AdminFixture.proxies(2, "lab")).start()) {
            ProxyHealth h = EmbeddedProxyPool.engineOf(f.pool)
                    .runtime("p00001")
                    .orElseThrow()
                    .health();
            Instant t0 = f.clock.instant();

            Map<String, Object> fresh = record(f.get("/proxies/p00001").json());
            assertEquals("HEALTHY", fresh.get("state"));
            assertEquals("created", fresh.get("reason"));
            assertEquals(0, ((Number) fresh.get("backoffStep")).intValue());
            assertNull(fresh.get("cooldownUntil"));

            f.clock.advance(Duration.ofSeconds(5));
            fail3(f, h); // passive: three in a row cool it for the initial 3 minutes
            Instant cooled = f.clock.instant();
            f.clock.advance(Duration.ofMinutes(3));
            long now = f.clock.read();
            Admission probe = h.tryAdmit(now); // the single recovery probe ...
            h.recordFailure(probe, FailureKind.CONNECT_TIMEOUT, now); // ... fails: 6 minutes now
            Instant again = f.clock.instant();
            f.clock.advance(Duration.ofSeconds(10));

            AdminFixture.Response r = f.get("/proxies/p00001");
            assertEquals(200, r.status(), r.body());
            assertEquals("p00001", r.json().get("id"));
            Map<String, Object> rec = record(r.json());
            assertEquals("COOLING", rec.get("state"));
            assertEquals("connect_timeout", rec.get("reason"));
            assertEquals(again.toString(), rec.get("since"));
            assertEquals(again.plus(Duration.ofMinutes(6)).toString(), rec.get("cooldownUntil"));
            assertEquals(2, ((Number) rec.get("backoffStep")).intValue());
            assertTrue(rec.get("counters") instanceof Map<?, ?>, rec.toString());

            List<Map<String, Object>> transitions = transitions(rec);
            assertEquals(
                    List.of("HEALTHY", "COOLING", "PROBE_ALLOWED", "COOLING"),
                    transitions.stream().map(t -> t.get("state")).toList());
            assertEquals(
                    List.of(
                            t0.toString(),
                            cooled.toString(),
                            cooled.plus(Duration.ofMinutes(3)).toString(),
                            again.toString()),
                    transitions.stream().map(t -> t.get("at")).toList());
            assertEquals("passive", transitions.get(1).get("stage"));

            List<Map<String, Object>> lastTwo =
                    transitions(record(f.get("/proxies/p00001?transitions=2").json()));
            assertEquals(
                    List.of("PROBE_ALLOWED", "COOLING"),
                    lastTwo.stream().map(t -> t.get("state")).toList());
            assertEquals(true, f.get("/proxies/p00001?masked=true").json().get("masked"));
        }
    }

    @Test
    void unknownIdsAre404AndBadParametersAre400NamingThem() {
        try (AdminFixture f =
                AdminFixture.options().proxies(AdminFixture.proxies(1, "lab")).start()) {
            AdminFixture.Response missing = f.get("/proxies/nope");
            assertEquals(404, missing.status());
            assertEquals("no proxy with id 'nope'", missing.message());
            AdminFixture.Response bad = f.get("/proxies/p00001?transitions=33");
            assertEquals(400, bad.status());
            assertTrue(bad.message().startsWith("transitions"), bad.message());
            AdminFixture.Response unknown = f.get("/proxies/p00001?colour=red");
            assertEquals(400, unknown.status());
            assertTrue(unknown.message().contains("colour"), unknown.message());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> record(Map<String, Object> proxy) {
        return (Map<String, Object>) proxy.get("healthRecord");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> transitions(Map<String, Object> record) {
        return (List<Map<String, Object>>) record.get("transitions");
    }
}
