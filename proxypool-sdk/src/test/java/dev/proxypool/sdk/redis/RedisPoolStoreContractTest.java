package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PoolStoreContract;
import dev.proxypool.core.extract.StoreSettings;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The whole store contract against a real Redis (127.0.0.1:6379), each store under its own key
 * prefix; after every test the store's Redis layout is audited for consistency, then deleted.
 */
@Tag("slow")
class RedisPoolStoreContractTest extends PoolStoreContract {

    @Override
    protected PoolStore createStore(StoreSettings settings) {
        return TestRedis.store(settings);
    }

    @Override
    protected void destroyStore(PoolStore s) {
        RedisPoolStore store = (RedisPoolStore) s;
        store.close();
        try {
            assertEquals(
                    List.of(),
                    LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, store.keyPrefix()),
                    "Redis layout after the test");
        } finally {
            TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, store.keyPrefix());
        }
    }
}
