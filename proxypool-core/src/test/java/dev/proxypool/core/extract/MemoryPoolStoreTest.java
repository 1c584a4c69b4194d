package dev.proxypool.core.extract;

/** Runs the whole store contract against the embedded store. */
class MemoryPoolStoreTest extends PoolStoreContract {

    @Override
    protected PoolStore createStore(StoreSettings settings) {
        return new MemoryPoolStore(settings);
    }
}
