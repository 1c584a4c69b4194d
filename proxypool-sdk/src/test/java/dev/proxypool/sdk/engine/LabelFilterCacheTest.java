package dev.proxypool.sdk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.Lease;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Request labels (username options) map to one filter instance per distinct label set, so the
 * snapshot finds the candidate set by identity; the merge and the bound behave as the per-request
 * build did.
 */
class LabelFilterCacheTest {

    private static final CandidateFilter ROUTING = CandidateFilter.ANY
            .withLabels(LabelSelector.of(Map.of("type", "residential", "country", "DE")))
            .withMinRemainingTtl(Duration.ofSeconds(30));

    @Test
    void equalLabelSetsGetTheSameFilterInstance() {
        LabelFilterCache cache = new LabelFilterCache(ROUTING);
        CandidateFilter first = cache.withLabels(Map.of("country", "US"));
        CandidateFilter second = cache.withLabels(new HashMap<>(Map.of("country", "US"))); // equal, not identical
        assertSame(first, second);
        assertEquals(
                Map.of("type", "residential", "country", "US"),
                first.labels().required(),
                "a request label overrides the routing's value for its key, the rest stays");
        assertEquals(ROUTING.minRemainingTtl(), first.minRemainingTtl());
        assertSame(ROUTING, cache.withLabels(Map.of()), "no request labels: the routing's own filter");
        assertNotSame(first, cache.withLabels(Map.of("country", "GB")));
        assertEquals(2, cache.size());
    }

    @Test
    void beyondTheBoundFiltersAreBuiltPerRequestAndStillCorrect() {
        LabelFilterCache cache = new LabelFilterCache(ROUTING);
        for (int i = 0; i < LabelFilterCache.MAX_ENTRIES + 10; i++) {
            cache.withLabels(Map.of("city", "c" + i));
        }
        assertEquals(LabelFilterCache.MAX_ENTRIES, cache.size());
        CandidateFilter a = cache.withLabels(Map.of("city", "beyond"));
        CandidateFilter b = cache.withLabels(Map.of("city", "beyond"));
        assertNotSame(a, b);
        assertEquals(a, b);
        assertEquals("beyond", a.labels().required().get("city"));
    }

    @Test
    void requestLabelsRouteToMatchingProxiesThroughOneMemoizedFilter() {
        ManualClock clock = new ManualClock();
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(List.of(proxy(1, "US"), proxy(2, "DE"), proxy(3, "US")), clock.instant());
        RoutingRule rule = RoutingRule.builder("r").build();
        PoolEngine e = new PoolEngine(List.of(rule), HealthPolicy.DEFAULTS, store, clock, clock, 1);
        e.refresh();
        for (int i = 0; i < 50; i++) {
            AcquireRequest us = new AcquireRequest(
                    "alice", "", "shop.example", "", List.of(), new HashMap<>(Map.of("country", "US")));
            try (Lease lease = assertAcquired(e.acquire(rule, us))) {
                assertEquals("US", lease.proxy().labels().get("country"));
            }
        }
        assertEquals(1, e.snapshot().memoizedFilters(), "50 requests with the same labels: one filter memoized");
        AcquireRequest one = new AcquireRequest("alice", "", "a.example", "", List.of(), Map.of("country", "US"));
        AcquireRequest two =
                new AcquireRequest("bob", "", "b.example", "", List.of(), new HashMap<>(Map.of("country", "US")));
        assertSame(
                e.pickRequestFor(rule, one).filter(),
                e.pickRequestFor(rule, two).filter(),
                "the same filter instance, so the snapshot's identity cache finds its candidate set");
        AcquireRequest plain = new AcquireRequest("alice", "", "", "", List.of());
        assertSame(
                e.pickRequestFor(rule, plain),
                e.pickRequestFor(rule, plain),
                "nothing varies: the routing's base request");
    }

    private static Lease assertAcquired(AcquireResult r) {
        return ((AcquireResult.Acquired) r).lease();
    }

    private static Proxy proxy(int i, String country) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, "198.51.100." + i, 8000 + i, CredentialRef.NONE))
                .upstream("lab")
                .provider("lab")
                .labels(Labels.of("country", country))
                .build();
    }
}
