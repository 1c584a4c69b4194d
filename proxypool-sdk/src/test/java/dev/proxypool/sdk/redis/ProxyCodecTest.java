package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The stored record format: every field round-trips, whatever characters it holds. */
class ProxyCodecTest {

    private static List<Proxy> awkwardProxies() {
        Proxy base = ProxyFixtures.rich(3);
        return List.of(
                ProxyFixtures.proxy(1),
                base,
                base.toBuilder()
                        .expiresAt(Instant.parse("2026-01-01T06:30:00.123456789Z"))
                        .build(),
                base.toBuilder()
                        .expiresAt(Instant.parse("1969-12-31T23:59:59.999999999Z"))
                        .build(),
                base.toBuilder()
                        .labels(Labels.of("a:b", "c=d", "x", "", "9:", "\u00e9t\u00e9 \u6771\u4eac", "nl", "one\ntwo"))
                        .build(),
                base.toBuilder()
                        .provider("p:1:2")
                        .anonymity(Anonymity.ANONYMOUS)
                        .exitNetwork(new ExitNetwork("2001:db8::1", 0, "", ""))
                        .build(),
                Proxy.builder(new ProxyKey(Protocol.SOCKS4, "[2001:DB8::7]", 65535, CredentialRef.of("ref_1.x-y")))
                        .id("custom:id with spaces")
                        .upstream("up:stream")
                        .build());
    }

    @Test
    void everyRecordRoundTrips() {
        List<Executable> checks = new ArrayList<>();
        for (Proxy p : awkwardProxies()) {
            checks.add(() -> assertEquals(p, ProxyCodec.decode(ProxyCodec.record(p)), p.id()));
        }
        assertAll(checks);
    }

    @Test
    void indexItemsArePrefixedByTheirUtf8Length() {
        Proxy p = ProxyFixtures.builder(1)
                .upstream("up-\u00e9")
                .labels(Labels.of("caf\u00e9", "x=y"))
                .build();
        String ix = ProxyCodec.indexItems(p);
        assertEquals("7:u:up-\u00e9" + "6:p:http" + "13:l:5:caf\u00e9=x=y", ix);
        assertEquals(List.of("u:up-\u00e9", "p:http", "l:5:caf\u00e9=x=y"), LayoutAudit.items(ix));
    }

    @Test
    void labelItemsOfDifferentLabelsNeverCollide() {
        // without the key length, a=b=c could be key "a" value "b=c" or key "a=b" value "c"
        assertFalse(ProxyCodec.labelItem("a", "b=c").equals(ProxyCodec.labelItem("a=b", "c")));
    }

    @Test
    void publishArgumentsCarryTheReferenceNeverASecret() {
        Proxy p = ProxyFixtures.rich(1);
        List<String> args = new ArrayList<>();
        ProxyCodec.publishArgs(p, args);
        assertEquals(3, args.size());
        assertEquals(p.id(), args.get(0));
        assertEquals(String.join("", ProxyCodec.setTerms(p, StoreSettings.DEFAULTS)), args.get(2));
        List<String> fields = LayoutAudit.items(args.get(1));
        assertEquals(
                List.of(
                        "socks5/192.0.2.1/1081/vendor-a",
                        "vendor-a-us",
                        "1767249000000",
                        "",
                        ProxyCodec.indexItems(p),
                        ProxyCodec.record(p)),
                fields,
                "k, u, e, en, ix, record (common.lua's T r)");
        String head = "1:1" + "18:" + p.id() + "6:socks5" + "9:192.0.2.1" + "4:1081" + "8:vendor-a" + "8:vendor-a"
                + "11:vendor-a-us";
        assertEquals(head, fields.get(5).substring(0, head.length()));
    }

    @Test
    void setTermsAreTheUpstreamTheProtocolTheDeclaredLabelsTheirCompositesAndTheirCombinationsWithTheProtocol() {
        Proxy p = ProxyFixtures.builder(1)
                .upstream("up")
                .labels(Labels.of("country", "US", "type", "dc", "isp", "x"))
                .build();
        StoreSettings dims = StoreSettings.builder()
                .indexDimensions(List.of("country", "type"))
                .build();
        List<String> terms = ProxyCodec.setTerms(p, dims);
        String composite = ProxyCodec.compositeItem(new java.util.TreeMap<>(Map.of("country", "US", "type", "dc")));
        assertEquals(
                List.of(
                        ProxyCodec.term("u:up"),
                        ProxyCodec.term("p:" + p.protocol().wireName()),
                        ProxyCodec.term(ProxyCodec.labelItem("country", "US")),
                        ProxyCodec.term(ProxyCodec.labelItem("type", "dc")),
                        ProxyCodec.term(composite),
                        ProxyCodec.term(withProtocol(Map.of("country", "US"))),
                        ProxyCodec.term(withProtocol(Map.of("type", "dc"))),
                        ProxyCodec.term(withProtocol(Map.of("country", "US", "type", "dc")))),
                terms,
                "no set of a label outside the declared dimensions (isp)");
        // a filter is served by a set exactly when it is one of those terms
        assertEquals(
                Optional.of(ProxyCodec.term(composite)),
                ProxyCodec.setTermFor(Optional.empty(), Optional.empty(), Map.of("type", "dc", "country", "US"), dims));
        assertEquals(
                Optional.of(ProxyCodec.term(ProxyCodec.labelItem("country", "US"))),
                ProxyCodec.setTermFor(Optional.empty(), Optional.empty(), Map.of("country", "US"), dims));
        assertEquals(
                Optional.of(ProxyCodec.term("u:up")),
                ProxyCodec.setTermFor(Optional.of("up"), Optional.empty(), Map.of(), dims));
        assertEquals(
                Optional.of(ProxyCodec.term("p:http")),
                ProxyCodec.setTermFor(Optional.empty(), Optional.of("http"), Map.of(), dims));
        assertEquals(
                Optional.empty(),
                ProxyCodec.setTermFor(Optional.of("up"), Optional.empty(), Map.of("country", "US"), dims));
        assertEquals(
                Optional.empty(), ProxyCodec.setTermFor(Optional.empty(), Optional.empty(), Map.of("isp", "x"), dims));
        assertEquals(
                Optional.empty(),
                ProxyCodec.setTermFor(Optional.empty(), Optional.empty(), Map.of("country", "US", "isp", "x"), dims));
        assertEquals(Optional.empty(), ProxyCodec.setTermFor(Optional.empty(), Optional.empty(), Map.of(), dims));
        // labels with a protocol: their combination with it
        assertEquals(
                Optional.of(ProxyCodec.term(
                        ProxyCodec.compositeItem(null, "http", new TreeMap<>(Map.of("country", "US"))))),
                ProxyCodec.setTermFor(Optional.empty(), Optional.of("http"), Map.of("country", "US"), dims));
        assertEquals(
                Optional.of(ProxyCodec.term("c:8:p:socks5" + "14:l:7:country=US" + "11:l:4:type=dc")),
                ProxyCodec.setTermFor(
                        Optional.empty(), Optional.of("socks5"), Map.of("type", "dc", "country", "US"), dims),
                "the protocol, then the labels in key order whatever the filter's order");
        // a filter of several set terms (a count=1 extraction pops the first and tests the others)
        assertEquals(
                List.of(
                        ProxyCodec.term(ProxyCodec.compositeItem(
                                null, "socks5", new TreeMap<>(Map.of("country", "US", "type", "dc")))),
                        ProxyCodec.term("u:up")),
                ProxyCodec.setTermsFor(
                        Optional.of("up"), Optional.of("socks5"), Map.of("type", "dc", "country", "US"), dims));
        assertEquals(
                List.of(ProxyCodec.term(ProxyCodec.labelItem("country", "US")), ProxyCodec.term("u:up")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.empty(), Map.of("country", "US"), dims));
        assertEquals(
                List.of(ProxyCodec.term("u:up"), ProxyCodec.term("p:http")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.of("http"), Map.of(), dims));
        assertEquals(
                List.of(),
                ProxyCodec.setTermsFor(
                        Optional.empty(), Optional.of("http"), Map.of("country", "US", "isp", "x"), dims),
                "a label outside the declared dimensions: no set serves the filter");
        assertEquals(List.of(), ProxyCodec.setTermsFor(Optional.empty(), Optional.empty(), Map.of(), dims));
    }

    @Test
    void withoutTheProtocolCombinationsALabelsAndProtocolFilterPopsTheLabelsSetAndTestsTheProtocol() {
        // store.index.protocol: false
        StoreSettings plain = StoreSettings.builder()
                .indexDimensions(List.of("country", "type"))
                .indexProtocol(false)
                .build();
        Proxy p = ProxyFixtures.builder(1)
                .upstream("up")
                .labels(Labels.of("country", "US", "type", "dc"))
                .build();
        String composite = ProxyCodec.compositeItem(new TreeMap<>(Map.of("country", "US", "type", "dc")));
        List<String> all =
                ProxyCodec.setTerms(p, plain.toBuilder().indexProtocol(true).build());
        assertEquals(
                all.stream()
                        .filter(t -> !t.contains(
                                "c:" + ProxyCodec.term("p:" + p.protocol().wireName())))
                        .toList(),
                ProxyCodec.setTerms(p, plain),
                "the same terms but the labels' combinations with the protocol");
        assertEquals(8, all.size());
        assertEquals(5, ProxyCodec.setTerms(p, plain).size());
        assertEquals(
                List.of(ProxyCodec.term(composite), ProxyCodec.term("p:socks5")),
                ProxyCodec.setTermsFor(
                        Optional.empty(), Optional.of("socks5"), Map.of("type", "dc", "country", "US"), plain));
        assertEquals(
                List.of(
                        ProxyCodec.term(ProxyCodec.labelItem("country", "US")),
                        ProxyCodec.term("u:up"),
                        ProxyCodec.term("p:http")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.of("http"), Map.of("country", "US"), plain));
    }

    @Test
    void withTheUpstreamCombinationsAnUpstreamBesideLabelsOrAProtocolIsOneSet() {
        // store.index.upstream: true
        StoreSettings withUpstream = StoreSettings.builder()
                .indexDimensions(List.of("country", "type"))
                .indexUpstream(true)
                .build();
        Proxy p = ProxyFixtures.builder(1, Protocol.SOCKS5)
                .upstream("up")
                .labels(Labels.of("country", "US", "type", "dc"))
                .build();
        List<String> terms = ProxyCodec.setTerms(p, withUpstream);
        List<String> without = ProxyCodec.setTerms(
                p, withUpstream.toBuilder().indexUpstream(false).build());
        assertEquals(without, terms.subList(0, without.size()), "the same terms first");
        assertEquals(
                List.of(
                                "c:4:u:up8:p:socks5",
                                "c:4:u:up14:l:7:country=US",
                                "c:4:u:up8:p:socks514:l:7:country=US",
                                "c:4:u:up11:l:4:type=dc",
                                "c:4:u:up8:p:socks511:l:4:type=dc",
                                "c:4:u:up14:l:7:country=US11:l:4:type=dc",
                                "c:4:u:up8:p:socks514:l:7:country=US11:l:4:type=dc")
                        .stream()
                        .map(ProxyCodec::term)
                        .toList(),
                terms.subList(without.size(), terms.size()),
                "then the upstream with the protocol, with each combination of the labels, and with both");
        assertEquals(
                List.of(ProxyCodec.term("c:4:u:up14:l:7:country=US")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.empty(), Map.of("country", "US"), withUpstream));
        assertEquals(
                List.of(ProxyCodec.term("c:4:u:up8:p:socks514:l:7:country=US11:l:4:type=dc")),
                ProxyCodec.setTermsFor(
                        Optional.of("up"), Optional.of("socks5"), Map.of("type", "dc", "country", "US"), withUpstream),
                "the upstream, the protocol, then the labels in key order");
        assertEquals(
                List.of(ProxyCodec.term("c:4:u:up8:p:socks5")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.of("socks5"), Map.of(), withUpstream));
        assertEquals(
                List.of(ProxyCodec.term("u:up")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.empty(), Map.of(), withUpstream),
                "an upstream alone: its own set");
        assertEquals(
                List.of(),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.empty(), Map.of("isp", "x"), withUpstream),
                "a label outside the declared dimensions: no set");
        // with the protocol's combinations off, the upstream's with the labels stay, the protocol is tested
        StoreSettings noProtocol = withUpstream.toBuilder().indexProtocol(false).build();
        assertEquals(
                List.of(ProxyCodec.term("c:4:u:up14:l:7:country=US"), ProxyCodec.term("p:socks5")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.of("socks5"), Map.of("country", "US"), noProtocol));
        assertEquals(
                List.of(ProxyCodec.term("u:up"), ProxyCodec.term("p:socks5")),
                ProxyCodec.setTermsFor(Optional.of("up"), Optional.of("socks5"), Map.of(), noProtocol));
        assertEquals(
                without.size(),
                ProxyCodec.setTerms(p, noProtocol).size(),
                "no protocol combinations (3 fewer), the upstream's with the labels (3 more)");
    }

    /** The set item of {@code labels} with the fixture's protocol. */
    private static String withProtocol(Map<String, String> labels) {
        return ProxyCodec.compositeItem(
                null, ProxyFixtures.builder(1).build().protocol().wireName(), new TreeMap<>(labels));
    }
}
