package dev.proxypool.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an extraction of the memory store walks when nothing can match: proxies held by health are
 * out of its index, and the bounds a client chooses ({@code minRemainingTtl}, {@code maxHealthAge})
 * beyond every proxy's are known without a walk. Before, each such call tested every slot of its
 * filter's set, or of the pool, under the store's one lock (64 ms per call at 1,000,000 proxies
 * held: benchmarks/RESULTS.md). {@link MemoryPoolStore#lastWalk} counts the slots tested.
 */
class MemoryPoolStoreWalkTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int POOL = 2000;
    private static final ExtractionFilter US =
            ExtractionFilter.builder().country("US").build();

    private final MemoryPoolStore store = new MemoryPoolStore();
    private final List<Proxy> pool = new ArrayList<>();

    MemoryPoolStoreWalkTest() {
        for (int n = 0; n < POOL; n++) { // proxy n expires 1 h + n s after NOW
            pool.add(ProxyFixtures.builder(n)
                    .labels(Labels.of("country", n % 2 == 0 ? "US" : "DE"))
                    .expiresAt(NOW.plus(Duration.ofHours(1)).plusSeconds(n))
                    .build());
        }
        store.upsert(pool, NOW);
    }

    @Test
    void proxiesAllHeldAreNotWalked() {
        store.markUnhealthy(pool.stream().map(Proxy::id).toList(), NOW.plus(Duration.ofMinutes(1)));
        assertEquals(List.of(), extract(ExtractionRequest.builder(1).build()));
        assertEquals(0, store.lastWalk(), "the held slots are out of the index");
        assertEquals(List.of(), extract(ExtractionRequest.builder(1).filter(US).build()));
        assertEquals(0, store.lastWalk());
        assertEquals(POOL, store.available(ProxyFixtures.UPSTREAM), "and still counted available");
    }

    @Test
    void moreTimeThanAnyProxyHasIsKnownWithoutAWalk() {
        Duration beyond = Duration.ofHours(1).plusSeconds(POOL);
        assertEquals(
                List.of(),
                extract(ExtractionRequest.builder(1).minRemainingTtl(beyond).build()));
        assertEquals(0, store.lastWalk());
        assertEquals(
                List.of(),
                extract(ExtractionRequest.builder(1)
                        .filter(US)
                        .minRemainingTtl(beyond)
                        .build()));
        assertEquals(0, store.lastWalk());
        // the last one has exactly that much time left less a second: found by a walk
        Duration lastOne = beyond.minusSeconds(1);
        assertEquals(
                List.of(pool.get(POOL - 1).id()),
                extract(ExtractionRequest.builder(5).minRemainingTtl(lastOne).build()));
        // a proxy that never expires qualifies for any time, so the walk is needed again
        Proxy lasting = ProxyFixtures.builder(POOL).build();
        store.upsert(List.of(lasting), NOW);
        assertEquals(
                List.of(lasting.id()),
                extract(ExtractionRequest.builder(5)
                        .minRemainingTtl(Duration.ofDays(3650))
                        .build()));
        assertTrue(store.lastWalk() > 0);
    }

    @Test
    void fresherChecksThanAnyProxyHasAreKnownWithoutAWalk() {
        Duration minute = Duration.ofMinutes(1);
        assertEquals(
                List.of(),
                extract(ExtractionRequest.builder(1).maxHealthAge(minute).build()));
        assertEquals(0, store.lastWalk(), "never checked");
        store.markChecked(pool.stream().map(Proxy::id).toList(), NOW.minus(Duration.ofMinutes(10)));
        assertEquals(
                List.of(),
                extract(ExtractionRequest.builder(1)
                        .filter(US)
                        .maxHealthAge(minute)
                        .build()));
        assertEquals(0, store.lastWalk(), "every check older than asked");
        store.markChecked(List.of(pool.get(0).id()), NOW);
        assertEquals(
                List.of(pool.get(0).id()),
                extract(ExtractionRequest.builder(5)
                        .filter(US)
                        .maxHealthAge(minute)
                        .build()));
    }

    private List<String> extract(ExtractionRequest request) {
        ExtractionResult r = store.extract(request, NOW);
        return ((ExtractionResult.Extracted) r)
                .proxies().stream().map(p -> p.proxy().id()).toList();
    }
}
