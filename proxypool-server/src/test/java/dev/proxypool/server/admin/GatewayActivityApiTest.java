package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.server.gateway.ExchangeResult;
import dev.proxypool.server.gateway.GatewayErrors;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Meter;
import io.helidon.service.registry.Services;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/admin/errors} and {@code GET /v1/admin/requests} over a {@link GatewayActivity} fed
 * the records the gateway hands it (the browser test drives real gateway traffic through it): counts
 * by reason, routing and upstream in a window and since the start, the bounded ring newest first,
 * every filter, masked client addresses, the routed-error counter, and the 400/404 answers. Every
 * exchange is checked against the OpenAPI document by the fixture.
 */
class GatewayActivityApiTest {

    private static ExchangeRecord failed(int status, String reason, String routing, String upstream, String client) {
        boolean tried = !upstream.equals("none");
        return new ExchangeRecord(
                "http",
                "192.168.7.42",
                client,
                "GET",
                status,
                reason,
                routing,
                upstream,
                tried ? "p00001" : "none",
                tried ? 2 : 0,
                3_500_000,
                status == 407 ? ExchangeResult.AUTH_REQUIRED : ExchangeResult.REJECTED);
    }

    private static ExchangeRecord ok(String routing, String upstream, String client) {
        return new ExchangeRecord(
                "connect",
                "2001:db8:5:6::1",
                client,
                "CONNECT",
                200,
                null,
                routing,
                upstream,
                "p00002",
                1,
                12_000_000,
                ExchangeResult.OK);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> body, String key) {
        return (List<Map<String, Object>>) body.get(key);
    }

    private static long count(List<Map<String, Object>> rows, String field, String value) {
        return rows.stream()
                .filter(r -> value.equals(r.get(field)))
                .mapToLong(r -> ((Number) r.get("count")).longValue())
                .sum();
    }

    /** Issue 37 item 15: at a steady success rate, a failure stays findable after many more successes than the ring holds. */
    @Test
    void failuresHaveARingOfTheirOwnAndTheAnswerSaysHowFarBackEachGoes() {
        try (AdminFixture f = AdminFixture.options().activity(50).start()) {
            f.activity.ended(failed(502, GatewayErrors.UPSTREAM_FAILED, "shop", "up-a", "alice"));
            String failedAt = f.clock.instant().toString();
            for (int i = 0; i < 2_000; i++) { // 20 req/s for 100 s: forty rings' worth of successes
                f.clock.advance(Duration.ofMillis(50));
                f.activity.ended(ok("shop", "up-a", "alice"));
            }
            Map<String, Object> errors = f.get("/requests?status=error").json();
            List<Map<String, Object>> found = list(errors, "entries");
            assertEquals(1, found.size(), errors.toString());
            assertEquals("upstream_failed", found.getFirst().get("reason"));
            assertEquals(0L, ((Number) found.getFirst().get("seq")).longValue());
            assertEquals(failedAt, errors.get("failuresOldest"));
            assertEquals(1L, ((Number) errors.get("failuresRecorded")).longValue());
            assertEquals(2_001L, ((Number) errors.get("recorded")).longValue());
            // the ring of all exchanges goes back 50 entries (2.5 s here); the failure ring further
            assertEquals(f.clock.instant().minusMillis(49 * 50).toString(), errors.get("oldest"), errors.toString());

            Map<String, Object> everything = f.get("/requests?limit=1000").json();
            List<Map<String, Object>> all = list(everything, "entries");
            assertEquals(51, all.size(), "the 50 newest exchanges, then the older failure, once");
            assertEquals("upstream_failed", all.getLast().get("reason"));
            assertEquals(
                    all.stream()
                            .map(e -> ((Number) e.get("seq")).longValue())
                            .distinct()
                            .count(),
                    all.size(),
                    "no entry twice");
        }
    }

    @Test
    void errorsAreCountedByReasonRoutingAndUpstreamInTheWindowAndSinceTheStart() {
        try (AdminFixture f = AdminFixture.options().activity(50).start()) {
            for (int i = 0; i < 3; i++) {
                f.activity.ended(failed(503, GatewayErrors.NO_CANDIDATE, "shop", "none", "alice"));
            }
            f.activity.ended(failed(502, GatewayErrors.UPSTREAM_FAILED, "shop", "up-a", "alice"));
            f.activity.ended(failed(502, GatewayErrors.UPSTREAM_FAILED, "plain", "up-b", "bob"));
            f.activity.ended(failed(407, GatewayErrors.AUTH_REQUIRED, "none", "none", null));
            f.activity.ended(ok("shop", "up-a", "alice")); // not an error: counted nowhere

            Map<String, Object> body = f.get("/errors").json();
            assertEquals(900L, ((Number) body.get("windowSeconds")).longValue());
            assertEquals(6L, ((Number) body.get("count")).longValue());
            assertEquals(6L, ((Number) body.get("total")).longValue());
            List<Map<String, Object>> reasons = list(body, "byReason");
            assertEquals(GatewayErrors.NO_CANDIDATE, reasons.get(0).get("reason"), "worst first: " + reasons);
            assertEquals(3, count(reasons, "reason", GatewayErrors.NO_CANDIDATE));
            assertEquals(2, count(reasons, "reason", GatewayErrors.UPSTREAM_FAILED));
            assertEquals(1, count(reasons, "reason", GatewayErrors.AUTH_REQUIRED));
            List<Map<String, Object>> routings = list(body, "byRouting");
            assertEquals(4, count(routings, "routing", "shop"));
            assertEquals(1, count(routings, "routing", "plain"));
            assertEquals(1, count(routings, "routing", "none"));
            Map<String, Object> shop = routings.stream()
                    .filter(r -> r.get("routing").equals("shop"))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    Map.of(GatewayErrors.NO_CANDIDATE, 3L, GatewayErrors.UPSTREAM_FAILED, 1L),
                    ((Map<?, ?>) shop.get("reasons"))
                            .entrySet().stream()
                                    .collect(java.util.stream.Collectors.toMap(
                                            e -> e.getKey(), e -> ((Number) e.getValue()).longValue())));
            List<Map<String, Object>> upstreams = list(body, "byUpstream");
            assertEquals(1, count(upstreams, "upstream", "up-a"));
            assertEquals(1, count(upstreams, "upstream", "up-b"));
            assertEquals(4, count(upstreams, "upstream", "none"));
            assertEquals(4, list(body, "rows").size(), "one row per (reason, routing, upstream)");

            // the Prometheus counter with routing and upstream tags counted the same
            Meter meter = Services.get(io.helidon.metrics.api.MeterRegistry.class)
                    .meters(m -> m.id().name().equals("proxypool.gateway.routed.errors")
                            && "plain".equals(m.id().tagsMap().get("routing"))
                            && "up-b".equals(m.id().tagsMap().get("upstream")))
                    .stream()
                    .findFirst()
                    .orElseThrow();
            assertTrue(((Counter) meter).count() >= 1, "routed error counter: " + ((Counter) meter).count());

            // twenty minutes on: out of the 15-minute window, still in the hour and in the totals
            f.clock.advance(Duration.ofMinutes(20));
            f.activity.ended(failed(403, GatewayErrors.DESTINATION_DENIED, "plain", "none", "bob"));
            Map<String, Object> later = f.get("/errors?window=15m").json();
            assertEquals(1L, ((Number) later.get("count")).longValue());
            assertEquals(7L, ((Number) later.get("total")).longValue());
            assertEquals(0, count(list(later, "byReason"), "reason", GatewayErrors.NO_CANDIDATE));
            assertEquals(1, count(list(later, "byReason"), "reason", GatewayErrors.DESTINATION_DENIED));
            Map<String, Object> hour = f.get("/errors?window=1h").json();
            assertEquals(3600L, ((Number) hour.get("windowSeconds")).longValue());
            assertEquals(7L, ((Number) hour.get("count")).longValue());

            assertEquals(400, f.get("/errors?window=2h").status());
            assertEquals(400, f.get("/errors?window=soon").status());
            assertEquals(400, f.get("/errors?since=1h").status());
        }
    }

    @Test
    void theRequestLogKeepsTheLastEntriesNewestFirstWithFiltersAndMaskedAddresses() {
        try (AdminFixture f = AdminFixture.options().activity(5).start()) {
            f.activity.ended(ok("shop", "up-a", "alice")); // pushed out by the five after it
            f.activity.ended(failed(503, GatewayErrors.NO_CANDIDATE, "shop", "none", "alice"));
            f.activity.ended(ok("shop", "up-a", "alice"));
            f.activity.ended(failed(407, GatewayErrors.AUTH_REQUIRED, "none", "none", null));
            f.activity.ended(failed(502, GatewayErrors.UPSTREAM_FAILED, "plain", "up-b", "bob"));
            f.activity.ended(ok("plain", "up-b", "bob"));

            Map<String, Object> all = f.get("/requests").json();
            assertEquals(5L, ((Number) all.get("capacity")).longValue());
            assertEquals(6L, ((Number) all.get("recorded")).longValue());
            List<Map<String, Object>> entries = list(all, "entries");
            assertEquals(5, entries.size());
            assertEquals(5L, ((Number) entries.get(0).get("seq")).longValue(), "newest first");
            assertEquals(1L, ((Number) entries.get(4).get("seq")).longValue(), "the oldest was overwritten");
            Map<String, Object> newest = entries.get(0);
            assertEquals("2001:db8:x:x", newest.get("peer"), "the client's address is masked");
            assertEquals("connect", newest.get("kind"));
            assertEquals(200L, ((Number) newest.get("status")).longValue());
            assertNull(newest.get("reason"));
            assertEquals("p00002", newest.get("proxy"));
            assertEquals(12.0, ((Number) newest.get("ms")).doubleValue(), 1e-9);
            assertFalse(all.toString().contains("192.168.7.42"), "no unmasked address: " + all);
            assertTrue(all.toString().contains("192.168.x.x"), all.toString());

            List<Map<String, Object>> errors =
                    list(f.get("/requests?status=error").json(), "entries");
            assertEquals(
                    List.of(4L, 3L, 1L),
                    errors.stream()
                            .map(e -> ((Number) e.get("seq")).longValue())
                            .toList());
            List<Map<String, Object>> fives = list(f.get("/requests?status=5xx").json(), "entries");
            assertEquals(2, fives.size());
            assertEquals(
                    1, list(f.get("/requests?status=407").json(), "entries").size());
            assertEquals(2, list(f.get("/requests?status=ok").json(), "entries").size());
            List<Map<String, Object>> bob =
                    list(f.get("/requests?client=bob&upstream=up-b").json(), "entries");
            assertEquals(2, bob.size());
            List<Map<String, Object>> anonymous =
                    list(f.get("/requests?client=-").json(), "entries");
            assertEquals(1, anonymous.size());
            assertNull(anonymous.get(0).get("client"));
            assertEquals(
                    GatewayErrors.AUTH_REQUIRED,
                    list(f.get("/requests?reason=auth_required").json(), "entries")
                            .get(0)
                            .get("reason"));
            assertEquals(
                    2, list(f.get("/requests?routing=shop").json(), "entries").size());
            assertEquals(
                    1,
                    list(f.get("/requests?kind=connect&routing=plain").json(), "entries")
                            .size());
            assertEquals(2, list(f.get("/requests?limit=2").json(), "entries").size());

            assertEquals(400, f.get("/requests?status=6xx").status());
            assertEquals(400, f.get("/requests?limit=0").status());
            assertEquals(400, f.get("/requests?kind=udp").status());
            assertEquals("invalid_request", f.get("/requests?host=x").error());
        }
    }

    @Test
    void aRequestLogOfZeroKeepsNothingButErrorsAreStillCounted() {
        try (AdminFixture f = AdminFixture.options().activity(0).start()) {
            f.activity.ended(failed(503, GatewayErrors.NO_CANDIDATE, "shop", "none", "alice"));
            Map<String, Object> body = f.get("/requests").json();
            assertEquals(0L, ((Number) body.get("capacity")).longValue());
            assertEquals(List.of(), body.get("entries"));
            assertEquals(1L, ((Number) f.get("/errors").json().get("count")).longValue());
        }
    }

    @Test
    void withoutAGatewayThePathsAreNotFound() {
        try (AdminFixture f = AdminFixture.options().start()) {
            assertEquals(404, f.get("/requests").status());
            assertEquals("not_found", f.get("/errors").error());
        }
    }
}
