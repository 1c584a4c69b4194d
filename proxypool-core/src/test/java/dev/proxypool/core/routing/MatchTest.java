package dev.proxypool.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which requests one rule's match takes: a table per key. */
class MatchTest {

    private static boolean takes(RoutingRule.Builder rule, Req request) {
        return new RoutingTable(List.of(rule.build())).route(request) != null;
    }

    static Stream<Arguments> hosts() {
        return Stream.of(
                // exact
                Arguments.of("shop.example", "shop.example", true),
                Arguments.of("shop.example", "SHOP.Example", true),
                Arguments.of("shop.example", "shop.example.", true),
                Arguments.of("Shop.Example.", "shop.example", true),
                Arguments.of("shop.example", "a.shop.example", false),
                Arguments.of("shop.example", "xshop.example", false),
                Arguments.of("shop.example", "shop.example.com", false),
                Arguments.of("shop.example", "shop.exampl", false),
                // suffix: subdomains at any depth, never the apex
                Arguments.of("*.shop.example", "a.shop.example", true),
                Arguments.of("*.shop.example", "a.b.shop.example", true),
                Arguments.of("*.shop.example", "WWW.SHOP.EXAMPLE.", true),
                Arguments.of("*.shop.example", "shop.example", false),
                Arguments.of("*.shop.example", "shop.example.", false),
                Arguments.of("*.shop.example", "ashop.example", false),
                Arguments.of("*.shop.example", "a.shop.example.evil", false),
                Arguments.of("*.shop.example", ".shop.example", false),
                // glob: * spans dots, ? is one character
                Arguments.of("api-*.example", "api-1.example", true),
                Arguments.of("api-*.example", "api-.example", true),
                Arguments.of("api-*.example", "api-eu.west.example", true),
                Arguments.of("api-*.example", "api.example", false),
                Arguments.of("cdn?.example", "cdn1.example", true),
                Arguments.of("cdn?.example", "CDN7.example", true),
                Arguments.of("cdn?.example", "cdn12.example", false),
                Arguments.of("cdn?.example", "cdn.example", false),
                Arguments.of("a*b*c", "axxbyyc", true),
                Arguments.of("a*b*c", "abcbc", true),
                Arguments.of("a*b*c", "axxbyy", false),
                Arguments.of("*", "anything.at.all", true),
                Arguments.of("*shop*", "myshop.example", true),
                Arguments.of("*.shop.*", "a.shop.example", true),
                Arguments.of("*.shop.*", "shop.example", false),
                // IP literals, IPv6 brackets on either side
                Arguments.of("203.0.113.7", "203.0.113.7", true),
                Arguments.of("203.0.113.*", "203.0.113.250", true),
                Arguments.of("2001:db8::1", "[2001:DB8::1]", true),
                Arguments.of("[2001:db8::1]", "2001:db8::1", true),
                // IDN as given: no punycode conversion, no non-ASCII case folding
                Arguments.of("bücher.example", "bücher.example", true),
                Arguments.of("bücher.example", "BÜCHER.example", false),
                Arguments.of("bücher.example", "xn--bcher-kva.example", false),
                Arguments.of("xn--bcher-kva.example", "XN--BCHER-KVA.example", true));
    }

    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @MethodSource
    void hosts(String pattern, String host, boolean expected) {
        assertEquals(expected, takes(RoutingRule.builder("r").hosts(pattern), Req.to(host)));
    }

    static Stream<Arguments> otherKeys() {
        RoutingRule.Builder ports = RoutingRule.builder("r").ports(443, 8443);
        RoutingRule.Builder methods = RoutingRule.builder("r").methods("GET", "head");
        RoutingRule.Builder clients = RoutingRule.builder("r").clients("alice", "bob");
        RoutingRule.Builder headers = RoutingRule.builder("r").headers(Map.of("X-Tenant", "blue"));
        RoutingRule.Builder twoHeaders = RoutingRule.builder("r").headers(Map.of("X-Tenant", "blue", "x-tier", "gold"));
        RoutingRule.Builder all = RoutingRule.builder("r")
                .hosts("*.shop.example")
                .ports(443)
                .methods("CONNECT")
                .clients("alice");
        Req base = Req.to("a.shop.example");
        return Stream.of(
                Arguments.of("port listed", ports, base.port(443), true),
                Arguments.of("port listed 2", ports, base.port(8443), true),
                Arguments.of("port not listed", ports, base.port(80), false),
                Arguments.of("method upper", methods, base.method("GET"), true),
                Arguments.of("method lower request", methods, base.method("get"), true),
                Arguments.of("method lower config", methods, base.method("HEAD"), true),
                Arguments.of("method not listed", methods, base.method("POST"), false),
                Arguments.of("method CONNECT", methods, base, false),
                Arguments.of("method absent", methods, base.method(null), false),
                Arguments.of("client listed", clients, base.client("bob"), true),
                Arguments.of("client is case-sensitive", clients, base.client("Alice"), false),
                Arguments.of("client anonymous", clients, base, false),
                Arguments.of("header exact", headers, base.header("X-Tenant", "blue"), true),
                Arguments.of("header name case", headers, base.header("x-TENANT", "blue"), true),
                Arguments.of("header value whitespace", headers, base.header("X-Tenant", "  blue "), true),
                Arguments.of("header value case", headers, base.header("X-Tenant", "Blue"), false),
                Arguments.of("header other value", headers, base.header("X-Tenant", "blueish"), false),
                Arguments.of("header absent", headers, base, false),
                Arguments.of(
                        "two headers both",
                        twoHeaders,
                        base.header("x-tenant", "blue").header("X-Tier", "gold"),
                        true),
                Arguments.of("two headers one", twoHeaders, base.header("x-tenant", "blue"), false),
                Arguments.of("all keys", all, base.client("alice"), true),
                Arguments.of("all keys but client", all, base.client("bob"), false),
                Arguments.of("all keys but port", all, base.client("alice").port(8443), false),
                Arguments.of("all keys but host", all, Req.to("shop.example").client("alice"), false),
                Arguments.of(
                        "catch-all, anonymous, no host",
                        RoutingRule.builder("r"),
                        new Req(null, null, 80, null, Map.of()),
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void otherKeys(String name, RoutingRule.Builder rule, Req request, boolean expected) {
        assertEquals(expected, takes(rule, request));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource
    void canonicalForm(String given, String stored) {
        assertEquals(
                List.of(stored),
                RoutingRule.builder("r").hosts(given).build().match().hosts());
    }

    static Stream<Arguments> canonicalForm() {
        return Stream.of(
                Arguments.of("Shop.Example.", "shop.example"),
                Arguments.of("  *.SHOP.example ", "*.shop.example"),
                Arguments.of("[2001:DB8::1]", "2001:db8::1"),
                Arguments.of("BÜCHER.example", "bÜcher.example"));
    }
}
