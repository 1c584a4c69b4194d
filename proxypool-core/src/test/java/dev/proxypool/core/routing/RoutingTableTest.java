package dev.proxypool.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sticky.StickyPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RoutingTableTest {

    private final RoutingTable table = new RoutingTable(List.of(
            RoutingRule.builder("shop-api").hosts("api.shop.example").build(),
            RoutingRule.builder("shop")
                    .hosts("*.shop.example", "shop.example")
                    .upstreams("a", "b")
                    .strategy(Strategy.SEQUENTIAL)
                    .build(),
            RoutingRule.builder("tls-only").ports(443).build(),
            RoutingRule.builder("default").build()));

    @Test
    void firstMatchingRuleWinsInConfiguredOrder() {
        assertEquals("shop-api", table.route(Req.to("api.shop.example")).name());
        assertEquals("shop", table.route(Req.to("www.shop.example")).name());
        assertEquals("shop", table.route(Req.to("shop.example")).name());
        assertEquals("tls-only", table.route(Req.to("other.example")).name());
        assertEquals("default", table.route(Req.to("other.example").port(80)).name());
        assertEquals(3, table.indexOf(Req.to("other.example").port(80)));
    }

    @Test
    void reorderingChangesTheWinner() {
        RoutingTable reversed = new RoutingTable(List.of(
                RoutingRule.builder("shop").hosts("*.shop.example").build(),
                RoutingRule.builder("shop-api").hosts("api.shop.example").build()));
        assertEquals("shop", reversed.route(Req.to("api.shop.example")).name());
    }

    @Test
    void noRouteIsNullAndMinusOne() {
        RoutingTable t = new RoutingTable(
                List.of(RoutingRule.builder("only").hosts("shop.example").build()));
        assertNull(t.route(Req.to("elsewhere.example")));
        assertEquals(-1, t.indexOf(Req.to("elsewhere.example")));
        assertNull(RoutingTable.EMPTY.route(Req.to("shop.example")));
    }

    @Test
    void catchAllTakesEverything() {
        RoutingTable t = new RoutingTable(List.of(RoutingRule.builder("all").build()));
        assertTrue(t.rules().getFirst().match().isCatchAll());
        for (Req r : List.of(
                Req.to("a.example"),
                Req.to("10.0.0.1").port(80).method("GET"),
                new Req(null, null, 1, null, Map.of()))) {
            assertSame(t.rules().getFirst(), t.route(r));
        }
    }

    @Test
    void lookupByName() {
        assertEquals("shop", table.rule("shop").orElseThrow().name());
        assertTrue(table.rule("nope").isEmpty());
        assertEquals(4, table.size());
    }

    @Test
    void defaultsFollowTheSpec() {
        RoutingRule r = RoutingRule.builder("r").build();
        assertEquals(Strategy.ROUND_ROBIN, r.strategy());
        assertEquals(List.of(), r.upstreams());
        assertEquals(Exhaustion.STOP, r.exhaustion());
        assertEquals(3, r.emptyThreshold());
        assertEquals(StickyPolicy.DISABLED, r.sticky());
        assertEquals(RetryPolicy.DEFAULTS, r.retry());
        assertEquals(NoCandidatePolicy.REJECT, r.onNoCandidate());
        assertEquals(Duration.ofSeconds(5), r.waitTimeout());
        assertEquals(HashKey.TARGET_HOST, r.hashKey());
        assertEquals(CandidateFilter.ANY, r.filter());
    }

    @Test
    void filterCarriesTheRulesUpstreamsAndRestrictions() {
        RoutingRule r = RoutingRule.builder("r")
                .upstreams("vendor-a-us", "vendor-b-us")
                .protocols(Set.of(Protocol.HTTP))
                .labels(LabelSelector.parse("type=residential"))
                .minRemainingTtl(Duration.ofSeconds(30))
                .build();
        assertEquals(List.of("vendor-a-us", "vendor-b-us"), r.filter().upstreams());
        assertEquals(Set.of(Protocol.HTTP), r.filter().protocols());
        assertEquals(Duration.ofSeconds(30), r.filter().minRemainingTtl());
        // the canonical constructor accepts a filter naming the same upstreams, or none
        RoutingRule same = new RoutingRule(
                "r",
                null,
                null,
                List.of("x"),
                null,
                3,
                CandidateFilter.ANY.withUpstreams(List.of("x")),
                null,
                null,
                null,
                null,
                null);
        assertEquals(List.of("x"), same.filter().upstreams());
    }

    @Test
    void sequentialRuleFeedsTheBoard() {
        RoutingRule r = RoutingRule.builder("shop")
                .strategy(Strategy.SEQUENTIAL)
                .upstreams("a", "b", "c")
                .exhaustion(Exhaustion.LOOP)
                .emptyThreshold(5)
                .build();
        assertEquals(new SequentialRouting("shop", List.of("a", "b", "c"), Exhaustion.LOOP, 5), r.sequentialRouting());
        assertThrows(
                IllegalStateException.class,
                () -> RoutingRule.builder("x").build().sequentialRouting());
    }

    @Test
    void hashKeySources() {
        assertEquals(HashKey.TARGET_HOST, HashKey.parse("host"));
        assertEquals("x-account", HashKey.parse("header:X-Account").header());
        assertEquals("header:x-account", HashKey.parse("Header: X-Account").configName());
        assertThrows(IllegalArgumentException.class, () -> HashKey.parse("cookie:x"));
    }

    static Stream<Arguments> invalidRules() {
        return Stream.<Arguments>of(
                bad(
                        "routings[].name: a routing needs a name",
                        () -> RoutingRule.builder(" ").build()),
                bad(
                        "routings[a b].name: 'a b' must be 1-64 letters",
                        () -> RoutingRule.builder("a b").build()),
                bad(
                        "routings[shop].upstreams: a sequential routing needs at least two upstreams, got 1",
                        () -> RoutingRule.builder("shop")
                                .strategy(Strategy.SEQUENTIAL)
                                .upstreams("a")
                                .build()),
                bad(
                        "routings[shop].upstreams: a sequential routing needs at least two upstreams, got 0",
                        () -> RoutingRule.builder("shop")
                                .strategy(Strategy.SEQUENTIAL)
                                .build()),
                bad(
                        "routings[shop].upstreams[2]: 'a' is listed twice",
                        () -> RoutingRule.builder("shop")
                                .upstreams("a", "b", "a")
                                .build()),
                bad(
                        "routings[shop].upstreams[1]: must not be empty",
                        () -> RoutingRule.builder("shop").upstreams("a", " ").build()),
                bad(
                        "routings[shop].emptyThreshold: must be at least 1, got 0",
                        () -> RoutingRule.builder("shop").emptyThreshold(0).build()),
                bad(
                        "routings[shop].waitTimeout: must not be negative, got PT-1S",
                        () -> RoutingRule.builder("shop")
                                .waitTimeout(Duration.ofSeconds(-1))
                                .build()),
                bad(
                        "routings[shop].waitTimeout: must be positive with onNoCandidate: wait",
                        () -> RoutingRule.builder("shop")
                                .onNoCandidate(NoCandidatePolicy.WAIT)
                                .waitTimeout(Duration.ZERO)
                                .build()),
                bad(
                        "routings[shop].minRemainingTtl must not be negative",
                        () -> RoutingRule.builder("shop")
                                .minRemainingTtl(Duration.ofSeconds(-5))
                                .build()),
                bad(
                        "routings[shop].maxHealthAge must not be negative",
                        () -> RoutingRule.builder("shop")
                                .maxHealthAge(Duration.ofSeconds(-5))
                                .build()),
                bad(
                        "routings[shop].filter: upstreams [b] differ from the routing's upstreams [a]",
                        () -> new RoutingRule(
                                "shop",
                                null,
                                null,
                                List.of("a"),
                                null,
                                3,
                                CandidateFilter.ANY.withUpstreams(List.of("b")),
                                null,
                                null,
                                null,
                                null,
                                null)),
                bad(
                        "routings[shop].match.hosts[0]: host pattern must not be empty",
                        () -> RoutingRule.builder("shop").hosts("").build()),
                bad(
                        "routings[shop].match.hosts[1]: 'a b.example' is not a host pattern",
                        () -> RoutingRule.builder("shop")
                                .hosts("ok.example", "a b.example")
                                .build()),
                bad(
                        "routings[shop].match.hosts[0]: 'shop.example:443' is not a host pattern (a port belongs in match.ports)",
                        () -> RoutingRule.builder("shop")
                                .hosts("shop.example:443")
                                .build()),
                bad(
                        "routings[shop].match.hosts[0]: '*.' has no domain after '*.'",
                        () -> RoutingRule.builder("shop").hosts("*.").build()),
                bad(
                        "routings[shop].match.hosts[0]: '.shop.example' is not a host pattern (empty label",
                        () -> RoutingRule.builder("shop").hosts(".shop.example").build()),
                bad(
                        "routings[shop].match.hosts[1]: 'shop.example' is listed twice",
                        () -> RoutingRule.builder("shop")
                                .hosts("shop.example", "SHOP.example.")
                                .build()),
                bad(
                        "routings[shop].match.ports[1]: port 0 is out of range 1..65535",
                        () -> RoutingRule.builder("shop").ports(443, 0).build()),
                bad(
                        "routings[shop].match.ports[0]: port 65536 is out of range 1..65535",
                        () -> RoutingRule.builder("shop").ports(65536).build()),
                bad(
                        "routings[shop].match.ports[1]: port 443 is listed twice",
                        () -> RoutingRule.builder("shop").ports(443, 443).build()),
                bad(
                        "routings[shop].match.methods[0]: 'GE T' is not an HTTP method",
                        () -> RoutingRule.builder("shop").methods("ge t").build()),
                bad(
                        "routings[shop].match.methods[1]: 'GET' is listed twice",
                        () -> RoutingRule.builder("shop").methods("GET", "get").build()),
                bad(
                        "routings[shop].match.clients[0]: must not be empty",
                        () -> RoutingRule.builder("shop").clients("").build()),
                bad(
                        "routings[shop].match.headers: 'X Bad' is not a header name",
                        () -> RoutingRule.builder("shop")
                                .headers(Map.of("X Bad", "v"))
                                .build()),
                bad(
                        "is listed twice (names are case-insensitive)",
                        () -> RoutingRule.builder("shop")
                                .headers(Map.of("X-A", "1", "x-a", "2"))
                                .build()),
                bad(
                        "routings[2].name: 'dup' is also routings[0]; routing names must be unique",
                        () -> new RoutingTable(List.of(
                                RoutingRule.builder("dup").build(),
                                RoutingRule.builder("other").build(),
                                RoutingRule.builder("dup").build()))));
    }

    private static Arguments bad(String message, Supplier<Object> build) {
        return Arguments.of(message, build);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalidRules(String message, Supplier<Object> build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::get);
        assertTrue(e.getMessage().contains(message), () -> "message was: " + e.getMessage());
    }
}
