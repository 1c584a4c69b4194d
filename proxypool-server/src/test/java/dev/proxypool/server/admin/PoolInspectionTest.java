package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/admin/proxies} over a 2,500-proxy pool. */
@Tag("slow")
class PoolInspectionTest {

    static final int SIZE = 2500;
    static List<Proxy> proxies;
    static AdminFixture f;

    @BeforeAll
    static void start() {
        proxies = AdminFixture.proxies(SIZE, "up-a", "up-b", "up-c");
        f = AdminFixture.options().proxies(proxies).start();
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    /** Follows nextCursor from the first page; asserts no proxy is listed twice. */
    static List<Map<String, Object>> all(String query, int limit, int[] pages) {
        List<Map<String, Object>> out = new ArrayList<>();
        Set<Object> seen = new HashSet<>();
        String cursor = null;
        do {
            AdminFixture.Response r =
                    f.get("/proxies?limit=" + limit + query + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(200, r.status(), r.body());
            List<Map<String, Object>> page = r.list("proxies");
            assertTrue(page.size() <= limit);
            for (Map<String, Object> p : page) {
                assertTrue(seen.add(p.get("id")), "listed twice: " + p.get("id"));
                out.add(p);
            }
            cursor = (String) r.json().get("nextCursor");
            pages[0]++;
        } while (cursor != null);
        return out;
    }

    @Test
    void paginationCoversEveryProxyExactlyOnce() {
        int[] pages = {0};
        List<Map<String, Object>> listed = all("", 1000, pages);
        assertEquals(SIZE, listed.size());
        assertEquals(3, pages[0]);
        Set<String> expected = new HashSet<>();
        proxies.forEach(p -> expected.add(p.id()));
        Set<Object> got = new HashSet<>();
        listed.forEach(p -> got.add(p.get("id")));
        assertEquals(expected, got);
        for (int i = 1; i < listed.size(); i++) {
            assertTrue(
                    ((String) listed.get(i - 1).get("id"))
                                    .compareTo((String) listed.get(i).get("id"))
                            < 0,
                    "ascending id");
        }

        int[] small = {0};
        assertEquals(SIZE, all("", 7, small).size(), "odd page sizes too");
        assertEquals((SIZE + 6) / 7, small[0]);
    }

    @Test
    void filtersSelectByUpstreamStateProtocolAndLabels() {
        check("&upstream=up-b", p -> p.upstream().equals("up-b"));
        check("&protocol=socks5", p -> p.protocol().wireName().equals("socks5"));
        check("&label.country=US", p -> "US".equals(p.labels().get("country")));
        check(
                "&upstream=up-a&protocol=http&label.country=DE",
                p -> p.upstream().equals("up-a")
                        && p.protocol().wireName().equals("http")
                        && "DE".equals(p.labels().get("country")));
        check("&state=available", p -> true);
        check("&state=disabled", p -> false);
        check("&upstream=none-such", p -> false);
    }

    private static void check(String query, Predicate<Proxy> expected) {
        long want = proxies.stream().filter(expected).count();
        List<Map<String, Object>> got = all(query, 1000, new int[1]);
        assertEquals(want, got.size(), query);
        Set<String> ids = new HashSet<>();
        proxies.stream().filter(expected).forEach(p -> ids.add(p.id()));
        got.forEach(p -> assertTrue(ids.contains((String) p.get("id")), query + " listed " + p.get("id")));
    }

    @Test
    void eachItemShowsTheProxyAndItsRuntimeButNoCredentials() {
        AcquireResult held = EmbeddedProxyPool.engineOf(f.pool)
                .acquire(
                        EmbeddedProxyPool.engineOf(f.pool).routings().getFirst(),
                        AcquireRequest.forHost("shop.example"));
        String leased = ((AcquireResult.Acquired) held).lease().proxyId();
        try {
            AdminFixture.Response r = f.get("/proxies?limit=1000");
            Map<String, Object> item = r.list("proxies").getFirst();
            assertEquals(
                    List.of(
                            "id",
                            "protocol",
                            "host",
                            "port",
                            "upstream",
                            "provider",
                            "credentialRef",
                            "labels",
                            "expiresAt",
                            "remainingTtlSeconds",
                            "state",
                            "checkedAt",
                            "health",
                            "inFlight",
                            "maxConcurrency",
                            "weight",
                            "effectiveWeight",
                            "weightFactor",
                            "dynamicWeight",
                            "latencyEwmaMs",
                            "bannedDomains"),
                    new ArrayList<>(item.keySet()),
                    "exactly these fields");
            assertEquals("p00000", item.get("id"));
            assertEquals("socks5", item.get("protocol"));
            assertEquals("10.0.0.0", item.get("host"), "admins see the address unmasked");
            assertEquals(new BigDecimal(8000), item.get("port"));
            assertEquals("vendor", item.get("credentialRef"), "the credential's name, never its value");
            assertEquals(Map.of("country", "US"), item.get("labels"));
            assertEquals("2026-01-01T01:00:00Z", item.get("expiresAt"));
            long remaining = java.time.Duration.between(f.clock.instant(), AdminFixture.START.plusSeconds(3600))
                    .getSeconds();
            assertEquals(new BigDecimal(remaining), item.get("remainingTtlSeconds"));
            assertEquals("available", item.get("state"));
            assertEquals("HEALTHY", ((Map<?, ?>) item.get("health")).get("state"));
            assertEquals(new BigDecimal(4), item.get("maxConcurrency"));
            assertNotNull(item.get("latencyEwmaMs"));
            assertNull(r.list("proxies").get(1).get("credentialRef"));
            for (String leak : List.of("password", "username", "secret")) {
                assertFalse(r.body().toLowerCase(java.util.Locale.ROOT).contains(leak), leak);
            }
            Map<String, Object> held1 = r.list("proxies").stream()
                    .filter(p -> p.get("id").equals(leased))
                    .findFirst()
                    .orElseThrow();
            assertEquals(new BigDecimal(1), held1.get("inFlight"), "a held lease shows in flight");
        } finally {
            ((AcquireResult.Acquired) held).lease().close();
        }
        assertEquals(100, f.get("/proxies").list("proxies").size(), "default limit");
    }

    @Test
    void badParametersAreRefusedNamingThem() {
        Map<String, String> cases = Map.of(
                "?limit=1001", "limit must be between 1 and 1000, got 1001",
                "?limit=0", "limit must be between 1 and 1000, got 0",
                "?limit=ten", "limit must be a whole number between 1 and 1000, got 'ten'",
                "?cursor=@@", "cursor '@@' is invalid (use the nextCursor of a previous page)",
                "?state=gone", "unknown state 'gone' (expected available or disabled)",
                "?protocol=ftp", "unknown protocol 'ftp'",
                "?colour=red",
                        "unknown query parameter 'colour' (expected upstream, state, health, reason, id, protocol, limit, cursor,"
                                + " masked or label.<key>)",
                "?upstream=a&upstream=b", "query parameter 'upstream' must be given once");
        cases.forEach((q, message) -> {
            AdminFixture.Response r = f.get("/proxies" + q);
            assertEquals(400, r.status(), q + " -> " + r.body());
            assertTrue(r.message().startsWith(message), q + " -> " + r.message());
        });
    }

    @Test
    void snapshotStatusShowsVersionAgeAndSizes() {
        f.clock.advance(java.time.Duration.ofSeconds(5));
        Map<String, Object> s = f.get("/snapshot").json();
        assertEquals(new BigDecimal(SIZE), s.get("size"));
        assertEquals(AdminFixture.START.toString(), s.get("generatedAt"));
        assertTrue(((BigDecimal) s.get("ageSeconds")).doubleValue() >= 5.0, String.valueOf(s.get("ageSeconds")));
        assertTrue(((BigDecimal) s.get("version")).longValue() >= 1);
        Map<?, ?> sizes = (Map<?, ?>) s.get("sizesByUpstream");
        assertEquals(new BigDecimal(834), sizes.get("up-a"));
        assertEquals(new BigDecimal(833), sizes.get("up-b"));
        assertEquals(
                Map.of("available", new BigDecimal(833), "disabled", new BigDecimal(0)),
                ((Map<?, ?>) s.get("store")).get("up-c"));
    }
}
