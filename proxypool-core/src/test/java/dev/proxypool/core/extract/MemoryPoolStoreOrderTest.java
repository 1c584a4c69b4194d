package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extracted;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the embedded store decides beyond the contract: which matching proxies go first. */
class MemoryPoolStoreOrderTest {

    private final Instant now = new ManualClock().instant();
    private final MemoryPoolStore store = new MemoryPoolStore();

    private List<String> extractIds(int count, ExtractionFilter filter) {
        List<String> ids = new ArrayList<>();
        extracted(store.extract(ExtractionRequest.builder(count).filter(filter).build(), now))
                .forEach(p -> ids.add(p.id()));
        return ids;
    }

    @Test
    void extractionTakesProxiesInPublishOrder() {
        store.upsert(List.of(proxy(3), proxy(1), proxy(2)), now);
        assertEquals(List.of(proxy(3).id(), proxy(1).id()), extractIds(2, ExtractionFilter.ANY));
        assertEquals(List.of(proxy(2).id()), extractIds(2, ExtractionFilter.ANY));
    }

    @Test
    void refreshKeepsThePlaceAndRelabelingMovesToTheEnd() {
        store.upsert(List.of(proxy(1), proxy(2), proxy(3)), now);
        store.upsert(List.of(builder(1).expiresAt(now.plus(Duration.ofHours(1))).build()), now);
        store.upsert(List.of(builder(2).labels(Labels.of("type", "residential")).build()), now);
        assertEquals(List.of(proxy(1).id(), proxy(3).id(), proxy(2).id()), extractIds(3, ExtractionFilter.ANY));
    }

    @Test
    void theSlotsAWalkPassedOverGoToTheBackOfTheSetItWalked() {
        Labels us = Labels.of("country", "US");
        List<Proxy> published = new ArrayList<>();
        for (int n = 1; n <= 5; n++) { // 1-3 and 5 of upstream a, 4 of b, all US
            published.add(builder(n).upstream(n == 4 ? "b" : "a").labels(us).build());
        }
        for (int n = 6; n <= 11; n++) { // b elsewhere: the US set (5) is the narrowest for US and b
            published.add(
                    builder(n).upstream("b").labels(Labels.of("country", "DE")).build());
        }
        store.upsert(published, now);
        // no set combines an upstream with labels: the US set is walked, b tested on each slot
        ExtractionFilter usOfB =
                ExtractionFilter.builder().country("US").upstream("b").build();
        assertEquals(List.of(published.get(3).id()), extractIds(1, usOfB), "the walk of the US set passes 1-3");
        // the US set is now 5, 1, 2, 3: a later walk does not pass 1-3 again first
        assertEquals(
                List.of(published.get(4).id(), published.get(0).id()),
                extractIds(2, ExtractionFilter.builder().country("US").build()));
        // an unfiltered walk (the set of all) kept publish order: nothing was passed over there
        assertEquals(List.of(published.get(1).id(), published.get(2).id()), extractIds(2, ExtractionFilter.ANY));
    }

    @Test
    void aRareCombinationOfCommonTermsIsFoundToItsLastMatch() {
        // 20,000 US proxies, 1 % of upstream "rare", and 20,200 DE ones of "rare": no set combines an
        // upstream with labels, so the US set is walked, and each walk sends the proxies it passed to
        // the back (before, every walk started at the head, past those the walks before had left
        // there: 200 walks past up to 19,800); none lost, none twice
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 40_200; n++) {
            boolean us = n < 20_000;
            pool.add(builder(n)
                    .upstream(us && n % 100 != 0 ? ProxyFixtures.UPSTREAM : "rare")
                    .labels(Labels.of("country", us ? "US" : "DE"))
                    .build());
        }
        store.upsert(pool, now);
        ExtractionFilter usRare =
                ExtractionFilter.builder().country("US").upstream("rare").build();
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            List<String> one = extractIds(1, usRare);
            assertEquals(1, one.size(), "US proxy of rare " + i);
            assertTrue(taken.add(one.get(0)), "extracted twice: " + one);
        }
        assertEquals(0, extractIds(1, usRare).size());
        assertEquals(19_800, store.available(ProxyFixtures.UPSTREAM), "the US proxies of the common upstream left");
        assertEquals(20_200, store.available("rare"), "and the DE ones of rare");
    }

    @Test
    void filteredExtractionFindsRareMatchesInALargePool() {
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 10_000; n++) {
            pool.add(builder(n)
                    .labels(Labels.of("country", n % 500 == 0 ? "IS" : "US"))
                    .build());
        }
        store.upsert(pool, now);
        ExtractionFilter iceland = ExtractionFilter.builder().country("IS").build();
        // 20 matches among 10,000, found through the country=IS index set
        for (int i = 0; i < 4; i++) {
            assertEquals(5, extractIds(5, iceland).size());
        }
        assertEquals(0, extractIds(5, iceland).size());
        assertEquals(9_980, store.available(ProxyFixtures.UPSTREAM));
    }
}
