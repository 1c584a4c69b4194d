package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.internal.ProxyPoolInternals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Operator disable/enable through HTTP: out of picks and extraction at once, audited, reversible. */
class DisableProxyTest {

    /** Proxy ids returned by {@code n} picks on the first routing, with counts. */
    private static Map<String, Integer> picks(AdminFixture f, int n) {
        RoutingRule rule = ProxyPoolInternals.engine(f.pool).routings().getFirst();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < n; i++) {
            AcquireResult r = ProxyPoolInternals.engine(f.pool).acquire(rule, AcquireRequest.forHost("shop.example"));
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
                    ProxyPoolInternals.engine(f.pool)
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
