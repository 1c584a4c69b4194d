package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.ManualClock;
import java.time.Instant;
import java.util.List;

/**
 * What every part of the store contract works with: a fresh store per test and a manual clock
 * whose {@link #now()} is passed to every store call. Implemented by {@link PoolStoreContract}.
 */
public interface StoreUnderTest {

    /** The store of this test: fresh, empty, default settings. */
    PoolStore store();

    ManualClock clock();

    /** Another fresh, empty, isolated store with these settings, destroyed after the test. */
    PoolStore newStore(StoreSettings settings);

    default Instant now() {
        return clock().instant();
    }

    default PublishResult publish(Proxy... proxies) {
        return store().upsert(List.of(proxies), now());
    }

    default ExtractionResult extract(ExtractionRequest request) {
        return store().extract(request, now());
    }

    default int totalAvailable(PoolStore store) {
        int n = 0;
        for (UpstreamCounts c : store.countsByUpstream().values()) {
            n += c.available();
        }
        return n;
    }
}
