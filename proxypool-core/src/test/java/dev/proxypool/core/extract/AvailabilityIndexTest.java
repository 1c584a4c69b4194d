package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The memory store's index sets: a filter on a combination of declared dimensions walks only its matches. */
class AvailabilityIndexTest {

    private final AvailabilityIndex index = new AvailabilityIndex(List.of("city", "country", "type"), true, false);

    private Slot add(int n, Labels labels) {
        return add(n, labels, Protocol.HTTP);
    }

    private Slot add(int n, Labels labels, Protocol protocol) {
        Slot s = new Slot(builder(n, protocol).labels(labels).build());
        index.add(s);
        return s;
    }

    private Set<Slot> narrowest(ExtractionFilter filter) {
        return new HashSet<>(index.narrowest(filter));
    }

    @Test
    void aCombinationOfDeclaredDimensionsIsOneSetOfExactlyItsMatches() {
        Slot usDc = add(1, Labels.of("country", "US", "type", "datacenter"));
        Slot usRes = add(2, Labels.of("country", "US", "type", "residential"));
        Slot deDc = add(3, Labels.of("country", "DE", "type", "datacenter"));
        Slot usDcNyc = add(4, Labels.of("country", "US", "type", "datacenter", "city", "nyc"));
        add(5, Labels.of("country", "US")); // no type: in no composite with it

        ExtractionFilter usDatacenter = ExtractionFilter.builder()
                .country("US")
                .label("type", "datacenter")
                .build();
        assertEquals(Set.of(usDc, usDcNyc), narrowest(usDatacenter));
        assertEquals(
                Set.of(usDcNyc),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "datacenter")
                        .label("city", "nyc")
                        .build()),
                "three dimensions: their own combination");
        assertEquals(
                Set.of(usDcNyc),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("city", "nyc")
                        .build()),
                "any two of them");
        assertEquals(
                Set.of(usRes),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "residential")
                        .build()));
        assertEquals(
                Set.of(deDc), narrowest(ExtractionFilter.builder().country("DE").build()), "one label: its own set");

        index.remove(usDc);
        index.remove(usDcNyc);
        assertEquals(Set.of(), narrowest(usDatacenter), "a combination with no proxy left has no set");
        assertEquals(
                Set.of(deDc),
                narrowest(ExtractionFilter.builder().label("type", "datacenter").build()));
    }

    @Test
    void aLabelOutsideTheDimensionsFallsBackToTheSmallestSingleSet() {
        Slot a = add(1, Labels.of("country", "US", "isp", "acme"));
        add(2, Labels.of("country", "US", "isp", "other"));
        add(3, Labels.of("country", "US", "isp", "other"));
        // country is declared, isp is not: no composite; the isp=acme set is the smallest (the per-slot
        // test then checks the country)
        assertEquals(
                Set.of(a),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("isp", "acme")
                        .build()));
        assertEquals(
                Set.of(),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("isp", "nowhere")
                        .build()),
                "no set for isp=nowhere: nothing to walk");
    }

    @Test
    void declaredLabelsWithAProtocolAreOneSetOfExactlyItsMatches() {
        // socks5 is rare in the US and common elsewhere: neither the US set nor the socks5 set is
        // narrow, their combination is
        Slot usSocks = add(1, Labels.of("country", "US", "type", "datacenter"), Protocol.SOCKS5);
        for (int n = 2; n < 12; n++) {
            add(n, Labels.of("country", "US", "type", "datacenter"), Protocol.HTTP);
        }
        for (int n = 12; n < 22; n++) {
            add(n, Labels.of("country", "DE", "type", "datacenter"), Protocol.SOCKS5);
        }
        ExtractionFilter usSocks5 = ExtractionFilter.builder()
                .country("US")
                .protocol(Protocol.SOCKS5)
                .build();
        assertEquals(Set.of(usSocks), narrowest(usSocks5), "one label and the protocol");
        assertEquals(
                Set.of(usSocks),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "datacenter")
                        .protocol(Protocol.SOCKS5)
                        .build()),
                "two labels and the protocol");
        assertEquals(
                11,
                narrowest(ExtractionFilter.builder()
                                .label("type", "datacenter")
                                .protocol(Protocol.SOCKS5)
                                .build())
                        .size(),
                "the type's socks5 proxies: the US one and the ten DE ones");
        index.remove(usSocks);
        assertEquals(Set.of(), narrowest(usSocks5), "a combination with no proxy left has no set");
    }

    @Test
    void withoutTheProtocolCombinationsTheNarrowerOfTheLabelsAndTheProtocolIsWalked() {
        // store.index.protocol: false: US and socks5 is walked through the smaller of the US set and the
        // socks5 set, the other term tested on each slot
        AvailabilityIndex plain = new AvailabilityIndex(List.of("country", "type"), false, false);
        Slot usSocks = new Slot(
                builder(1, Protocol.SOCKS5).labels(Labels.of("country", "US")).build());
        plain.add(usSocks);
        Set<Slot> us = new HashSet<>(Set.of(usSocks));
        for (int n = 2; n < 5; n++) {
            Slot s = new Slot(builder(n).labels(Labels.of("country", "US")).build());
            plain.add(s);
            us.add(s);
        }
        for (int n = 5; n < 15; n++) {
            plain.add(new Slot(builder(n, Protocol.SOCKS5)
                    .labels(Labels.of("country", "DE"))
                    .build()));
        }
        assertEquals(
                us,
                new HashSet<>(plain.narrowest(ExtractionFilter.builder()
                        .country("US")
                        .protocol(Protocol.SOCKS5)
                        .build())),
                "the US set (4) rather than the socks5 set (11)");
    }

    @Test
    void withTheUpstreamCombinationsAnUpstreamBesideLabelsOrAProtocolIsOneSetOfExactlyItsMatches() {
        // store.index.upstream: true: one upstream's proxies of a country, of a protocol, or of both
        AvailabilityIndex withUpstream = new AvailabilityIndex(List.of("country", "type"), true, true);
        Set<Slot> aUs = new HashSet<>();
        Set<Slot> aSocks = new HashSet<>();
        Set<Slot> aUsDcSocks = new HashSet<>();
        for (int n = 0; n < 40; n++) {
            String upstream = n % 4 == 0 ? "vendor-a" : "vendor-b";
            Protocol protocol = n % 3 == 0 ? Protocol.SOCKS5 : Protocol.HTTP;
            String country = n / 4 % 2 == 0 ? "US" : "DE"; // half of each upstream's
            String type = n % 5 == 0 ? "datacenter" : "residential";
            Slot s = new Slot(builder(n, protocol)
                    .upstream(upstream)
                    .labels(Labels.of("country", country, "type", type))
                    .build());
            withUpstream.add(s);
            if (upstream.equals("vendor-a") && country.equals("US")) {
                aUs.add(s);
            }
            if (upstream.equals("vendor-a") && protocol == Protocol.SOCKS5) {
                aSocks.add(s);
                if (country.equals("US") && type.equals("datacenter")) {
                    aUsDcSocks.add(s);
                }
            }
        }
        ExtractionFilter upstreamAndCountry =
                ExtractionFilter.builder().upstream("vendor-a").country("US").build();
        assertEquals(5, aUs.size());
        assertEquals(aUs, new HashSet<>(withUpstream.narrowest(upstreamAndCountry)), "vendor-a's US proxies");
        assertEquals(
                aSocks,
                new HashSet<>(withUpstream.narrowest(ExtractionFilter.builder()
                        .upstream("vendor-a")
                        .protocol(Protocol.SOCKS5)
                        .build())),
                "vendor-a's socks5 proxies");
        ExtractionFilter all = ExtractionFilter.builder()
                .upstream("vendor-a")
                .country("US")
                .label("type", "datacenter")
                .protocol(Protocol.SOCKS5)
                .build();
        assertEquals(aUsDcSocks, new HashSet<>(withUpstream.narrowest(all)), "upstream, two labels and the protocol");
        for (Slot s : aUsDcSocks) {
            withUpstream.remove(s);
        }
        assertEquals(Set.of(), withUpstream.narrowest(all), "a combination with no proxy left has no set");

        // off (the default): the narrowest single set, the other terms tested on each slot
        AvailabilityIndex plain = new AvailabilityIndex(List.of("country", "type"), true, false);
        Set<Slot> vendorA = new HashSet<>();
        for (int n = 0; n < 40; n++) {
            Slot s = new Slot(builder(n)
                    .upstream(n % 4 == 0 ? "vendor-a" : "vendor-b")
                    .labels(Labels.of("country", n / 4 % 2 == 0 ? "US" : "DE"))
                    .build());
            plain.add(s);
            if (n % 4 == 0) {
                vendorA.add(s);
            }
        }
        assertEquals(
                vendorA,
                new HashSet<>(plain.narrowest(upstreamAndCountry)),
                "the vendor-a set (10) rather than the US set (20), US tested on each");
    }

    @Test
    void aSetIsDroppedWithItsLastSlotAndFiledAnewForTheNextOne() {
        Slot us = add(1, Labels.of("country", "US", "type", "residential", "city", "NYC"));
        Slot de = add(2, Labels.of("country", "DE", "type", "datacenter"));
        AvailabilityIndex onlyDe = new AvailabilityIndex(List.of("city", "country", "type"), true, false);
        onlyDe.add(new Slot(builder(2)
                .labels(Labels.of("country", "DE", "type", "datacenter"))
                .build()));

        index.remove(us);
        assertEquals(onlyDe.sets(), index.sets(), "the sets only proxy 1 was in are gone, the label city's map too");
        assertEquals(
                Set.of(), narrowest(ExtractionFilter.builder().country("US").build()));
        index.remove(us); // twice: nothing more happens
        assertEquals(onlyDe.sets(), index.sets());

        index.remove(de);
        assertEquals(0, index.sets());
        assertEquals(0, index.total());

        Slot again = add(3, Labels.of("country", "US", "type", "residential"));
        assertEquals(
                Set.of(again),
                narrowest(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "residential")
                        .build()));
        assertEquals(1, index.upstream(ProxyFixtures.UPSTREAM));
    }
}
