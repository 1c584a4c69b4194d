package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code GET/POST /v1/admin/routings/{name}/sequential} on the live board. */
class SequentialAdminTest {

    static AdminFixture start() {
        return AdminFixture.options()
                .routings(
                        RoutingRule.builder("shop")
                                .strategy(Strategy.SEQUENTIAL)
                                .upstreams("a", "b", "c")
                                .build(),
                        RoutingRule.builder("plain").build())
                .start();
    }

    @Test
    void resetAndAdvanceMoveTheBoardPersistAndAudit() {
        try (AdminFixture f = start()) {
            Map<String, Object> s = f.get("/routings/shop/sequential").json();
            assertEquals("shop", s.get("routing"));
            assertEquals(List.of("a", "b", "c"), s.get("upstreams"));
            assertEquals("stop", s.get("exhaustion"));
            assertEquals(new BigDecimal(0), s.get("index"));
            assertEquals("a", s.get("upstream"));
            assertEquals("initial", s.get("reason"));

            AdminFixture.Response adv = f.post("/routings/shop/sequential", "{\"action\": \"advance\"}");
            assertEquals(200, adv.status(), adv.body());
            assertEquals("b", adv.json().get("upstream"));
            assertEquals("admin_advance", adv.json().get("reason"));
            assertEquals(
                    1,
                    EmbeddedProxyPool.engineOf(f.pool)
                            .sequential()
                            .current("shop")
                            .index(),
                    "the live board moved");

            assertEquals(
                    "c",
                    f.post("/routings/shop/sequential", "{\"action\": \"advance\"}")
                            .json()
                            .get("upstream"));
            Map<String, Object> end = f.post("/routings/shop/sequential", "{\"action\": \"advance\"}")
                    .json();
            assertEquals("c", end.get("upstream"));
            assertEquals(true, end.get("exhausted"), "stop: past the last upstream it is exhausted");

            Map<String, Object> reset = f.post("/routings/shop/sequential", "{\"action\": \"reset\"}")
                    .json();
            assertEquals("a", reset.get("upstream"));
            assertEquals(false, reset.get("exhausted"));
            assertEquals("admin_reset", reset.get("reason"));
            assertEquals(reset, f.get("/routings/shop/sequential").json());

            SequentialState stored = f.store.sequentialStates().getFirst();
            assertEquals(
                    EmbeddedProxyPool.engineOf(f.pool).sequential().current("shop"),
                    stored,
                    "the store holds the board's state");

            List<Map<String, Object>> log = f.get("/audit").list("entries");
            assertEquals(
                    List.of(
                            "routing.sequential.reset",
                            "routing.sequential.advance",
                            "routing.sequential.advance",
                            "routing.sequential.advance"),
                    log.stream().map(e -> e.get("action")).toList());
            assertEquals("c", ((Map<?, ?>) log.getFirst().get("before")).get("upstream"));
            assertEquals("a", ((Map<?, ?>) log.getFirst().get("after")).get("upstream"));
        }
    }

    @Test
    void onlySequentialRoutingsHaveAState() {
        try (AdminFixture f = start()) {
            AdminFixture.Response plain = f.get("/routings/plain/sequential");
            assertEquals(404, plain.status());
            assertEquals("routing 'plain' is not a sequential routing", plain.message());
            assertEquals(
                    404,
                    f.post("/routings/plain/sequential", "{\"action\": \"reset\"}")
                            .status());
            AdminFixture.Response none = f.get("/routings/nope/sequential");
            assertEquals(404, none.status());
            assertEquals("no routing named 'nope'", none.message());

            AdminFixture.Response bad = f.post("/routings/shop/sequential", "{\"action\": \"jump\"}");
            assertEquals(400, bad.status());
            assertEquals("action must be reset or advance, got 'jump'", bad.message());
            assertEquals(
                    "unknown field 'steps' (expected action)",
                    f.post("/routings/shop/sequential", "{\"action\": \"advance\", \"steps\": 2}")
                            .message());
            assertEquals(400, f.post("/routings/shop/sequential", null).status());
            assertEquals(
                    0,
                    EmbeddedProxyPool.engineOf(f.pool)
                            .sequential()
                            .current("shop")
                            .index(),
                    "refused actions move nothing");
        }
    }
}
