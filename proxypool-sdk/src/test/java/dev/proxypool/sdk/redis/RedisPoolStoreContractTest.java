package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PoolStoreContract;
import dev.proxypool.core.extract.StoreSettings;

/** The whole store contract against a real Redis (127.0.0.1:6379), each store under its own key prefix. */
class RedisPoolStoreContractTest extends PoolStoreContract {

    @Override
    protected PoolStore createStore(StoreSettings settings) {
        return TestRedis.store(settings);
    }

    @Override
    protected void destroyStore(PoolStore s) {
        RedisPoolStore store = (RedisPoolStore) s;
        store.close();
        TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, store.keyPrefix());
    }
}
