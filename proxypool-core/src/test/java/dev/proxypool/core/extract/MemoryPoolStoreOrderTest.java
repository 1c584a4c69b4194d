package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extracted;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
