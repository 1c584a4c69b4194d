package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 37 item 13: the Proxies page's filters (health state, health reason, a part of the id) and
 * {@code POST /v1/admin/proxies/bulk} on a selection or on every proxy matching a filter (the recovery
 * after an auth incident), audited.
 */
class ProxyBulkTest {

    private static ProxyHealth health(AdminFixture f, String id) {
        return EmbeddedProxyPool.engineOf(f.pool).runtime(id).orElseThrow().health();
    }

    private static String id(int i) {
        return String.format("p%05d", i);
    }

    /** 30 proxies: even ids on vendor, odd on other; 8 vendor and 2 other rejected their credentials. */
    private static AdminFixture incident() {
        List<Proxy> proxies = new ArrayList<>(AdminFixture.proxies(30, "vendor", "other"));
        AdminFixture f = AdminFixture.options().proxies(proxies).start();
        long now = f.clock.read();
        for (int i = 0; i < 16; i += 2) {
            health(f, id(i)).recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, now);
        }
        health(f, id(1)).recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, now);
        health(f, id(3)).recordFailure(Admission.ADMITTED, FailureKind.PROXY_AUTH_REJECTED, now);
        assertEquals(200, f.post("/proxies/" + id(20) + "/disable", null).status(), "one an operator disabled");
        return f;
    }

    @SuppressWarnings("unchecked")
    private static List<String> ids(AdminFixture.Response r) {
        return r.list("proxies").stream().map(p -> (String) p.get("id")).toList();
    }

    @Test
    void theListingFiltersByHealthReasonAndIdAcrossPages() {
        try (AdminFixture f = incident()) {
            String q = "/proxies?upstream=vendor&health=DISABLED&reason=proxy_auth_rejected&limit=3";
            List<String> all = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                AdminFixture.Response r = f.get(
                        q + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
                assertEquals(200, r.status(), r.body());
                assertEquals(null, r.json().get("total"), "not countable from the store");
                all.addAll(ids(r));
                cursor = (String) r.json().get("nextCursor");
                pages++;
            } while (cursor != null && pages < 20);
            assertEquals(List.of(id(0), id(2), id(4), id(6), id(8), id(10), id(12), id(14)), all);
            assertEquals(List.of(id(20)), ids(f.get("/proxies?health=disabled&reason=operator")));
            assertEquals(19, ids(f.get("/proxies?health=HEALTHY&limit=100")).size(), "30 - 10 rejected - 1 disabled");
            assertEquals(
                    List.of(id(10), id(11), id(12), id(13), id(14), id(15), id(16), id(17), id(18), id(19)),
                    ids(f.get("/proxies?id=P0001")));
            AdminFixture.Response bad = f.get("/proxies?health=sick");
            assertEquals(400, bad.status());
            assertEquals("health must be HEALTHY, COOLING, PROBE_ALLOWED or DISABLED, got 'sick'", bad.message());
        }
    }

    @Test
    void everyAuthDisabledProxyOfAnUpstreamIsRecheckedAtOnceAndAudited() {
        try (AdminFixture f = incident()) {
            AdminFixture.Response r = f.post(
                    "/proxies/bulk",
                    "{\"action\": \"recheck\", \"note\": \"vendor rotated the password\", \"filter\": "
                            + "{\"upstream\": \"vendor\", \"health\": \"DISABLED\", \"reason\": \"proxy_auth_rejected\"}}");
            assertEquals(200, r.status(), r.body());
            assertEquals(8, ((Number) r.json().get("matched")).intValue());
            assertEquals(8, ((Number) r.json().get("changed")).intValue());
            for (int i = 0; i < 16; i += 2) {
                ProxyHealth h = health(f, id(i));
                assertEquals(HealthState.COOLING, h.state(), id(i));
                assertEquals("recheck_requested", h.status().reason().code());
                assertEquals(Admission.PROBE, h.tryAdmit(f.clock.read()), "its one recovery check");
            }
            assertEquals(HealthState.DISABLED, health(f, id(1)).state(), "another upstream: untouched");
            assertEquals(
                    ProxyState.DISABLED,
                    EmbeddedProxyPool.engineOf(f.pool)
                            .store()
                            .get(id(20))
                            .orElseThrow()
                            .state(),
                    "an operator's disable needs an enable, not a re-check");
            Map<String, Object> audit = f.get("/audit").list("entries").getFirst();
            assertEquals("proxy.bulk.recheck", audit.get("action"));
            assertEquals("bulk", audit.get("entityName"));
            assertEquals(8, ((Number) ((Map<?, ?>) audit.get("after")).get("changed")).intValue());
            assertNotNull(((Map<?, ?>) audit.get("before")).get("filter"));
        }
    }

    @Test
    void aSelectionIsEnabledOrDisabledAndUnknownIdsAreReported() {
        try (AdminFixture f = incident()) {
            AdminFixture.Response r = f.post(
                    "/proxies/bulk",
                    "{\"action\": \"enable\", \"ids\": [\"" + id(1) + "\", \"" + id(3) + "\", \"" + id(5)
                            + "\", \"nope\", \"" + id(20) + "\"]}");
            assertEquals(200, r.status(), r.body());
            assertEquals(4, ((Number) r.json().get("matched")).intValue());
            assertEquals(3, ((Number) r.json().get("changed")).intValue(), "p00005 was healthy already");
            assertEquals(List.of("nope"), r.json().get("unknown"));
            assertEquals(HealthState.COOLING, health(f, id(1)).state(), "disabled for a failure: one check first");
            assertEquals("operator_enabled", health(f, id(1)).status().reason().code());
            assertEquals(
                    ProxyState.AVAILABLE,
                    EmbeddedProxyPool.engineOf(f.pool)
                            .store()
                            .get(id(20))
                            .orElseThrow()
                            .state());
            assertEquals(HealthState.HEALTHY, health(f, id(20)).state(), "disabled while healthy: back at once");

            AdminFixture.Response d = f.post(
                    "/proxies/bulk", "{\"action\": \"disable\", \"ids\": [\"" + id(7) + "\", \"" + id(9) + "\"]}");
            assertEquals(2, ((Number) d.json().get("changed")).intValue());
            Set<String> disabled = new HashSet<>(ids(f.get("/proxies?state=disabled")));
            assertTrue(disabled.containsAll(List.of(id(7), id(9))), disabled.toString());
            assertEquals(
                    List.of("proxy.bulk.disable", "proxy.bulk.enable", "proxy.disable"),
                    f.get("/audit").list("entries").stream()
                            .map(a -> a.get("action"))
                            .toList());
        }
    }

    @Test
    void badRequestsNameTheProblemAndChangeNothing() {
        try (AdminFixture f = incident()) {
            String[][] cases = {
                {"{\"action\": \"reboot\", \"ids\": []}", "action must be enable, disable or recheck, got 'reboot'"},
                {"{\"action\": \"enable\"}", "give either ids (a selection) or filter (every matching proxy)"},
                {
                    "{\"action\": \"enable\", \"ids\": [], \"filter\": {}}",
                    "give either ids (a selection) or filter (every matching proxy)"
                },
                {
                    "{\"action\": \"enable\", \"filter\": {}}",
                    "filter must name at least one field (every proxy at once is not a filter)"
                },
                {
                    "{\"action\": \"enable\", \"filter\": {\"colour\": \"red\"}}",
                    "unknown filter field 'colour' (expected upstream, state, health, reason, id)"
                },
            };
            int rows = f.get("/audit").list("entries").size();
            for (String[] c : cases) {
                AdminFixture.Response r = f.post("/proxies/bulk", c[0]);
                assertEquals(400, r.status(), c[0]);
                assertEquals(c[1], r.message());
            }
            assertEquals(rows, f.get("/audit").list("entries").size());
        }
    }
}
