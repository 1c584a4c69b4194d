package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PoolStoreContract;
import dev.proxypool.core.extract.StoreSettings;
import org.junit.jupiter.api.Tag;

/**
 * The whole store contract against a real Redis Cluster (3 masters + 3 replicas on loopback,
 * {@link TestRedisCluster}), the pool in 4 shards so that filters, counts, listing and
 * allOrNothing extraction span several shards and masters; each store under its own key prefix,
 * its keys deleted after every test.
 */
@Tag("slow")
class RedisClusterPoolStoreContractTest extends PoolStoreContract {

    static final int SHARDS = 4;

    @Override
    protected PoolStore createStore(StoreSettings settings) {
        return TestRedisCluster.store(settings, SHARDS);
    }

    @Override
    protected void destroyStore(PoolStore s) {
        RedisClusterPoolStore store = (RedisClusterPoolStore) s;
        store.close();
        TestRedisCluster.deleteKeys(store.keyPrefix());
    }
}
