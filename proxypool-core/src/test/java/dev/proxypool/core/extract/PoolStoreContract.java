package dev.proxypool.core.extract;

import dev.proxypool.core.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link PoolStore} contract: every rule of the SPI as tests, run against every implementation
 * ({@code MemoryPoolStoreTest}, the Redis store's test). Extend it and implement
 * {@link #createStore}; the rules come from the contract interfaces it implements, one area each.
 *
 * <p>Stores are driven by a {@link ManualClock} starting at 2026-01-01T00:00:00Z; every instant the
 * tests use is whole seconds, and every TTL is minutes or longer, so a store with millisecond
 * precision or native key TTLs (set relative to the given {@code now}) passes.
 */
public abstract class PoolStoreContract
        implements PublishContract,
                ExtractionContract,
                FilterContract,
                LifecycleContract,
                IdempotencyContract,
                InspectionContract,
                ValidationContract,
                ConcurrencyContract {

    private final ManualClock clock = new ManualClock();
    private final List<PoolStore> opened = new ArrayList<>();
    private PoolStore store;

    /** A new, empty store, isolated from every other store this method returned (e.g. its own key prefix). */
    protected abstract PoolStore createStore(StoreSettings settings);

    /** Releases a store after its test (e.g. deletes its keys); must accept an already closed store. */
    protected void destroyStore(PoolStore s) {
        s.close();
    }

    @BeforeEach
    protected final void openStore() {
        store = newStore(StoreSettings.DEFAULTS);
    }

    @AfterEach
    protected final void destroyStores() {
        for (PoolStore s : opened) {
            destroyStore(s);
        }
        opened.clear();
    }

    @Override
    public final PoolStore store() {
        return store;
    }

    @Override
    public final ManualClock clock() {
        return clock;
    }

    @Override
    public final PoolStore newStore(StoreSettings settings) {
        PoolStore s = createStore(settings);
        opened.add(s);
        return s;
    }
}
