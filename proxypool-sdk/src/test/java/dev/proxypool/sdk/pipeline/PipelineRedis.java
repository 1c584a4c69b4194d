package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** The machine's Redis (127.0.0.1:6379) for this package's tests: a random key prefix per use, deleted after. */
final class PipelineRedis {

    private PipelineRedis() {}

    static String randomPrefix() {
        return "pptest:" + UUID.randomUUID() + ":";
    }

    static RedisStoreConfig config(String prefix) {
        return RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(16);
    }

    static RedisPoolStore store(String prefix) {
        return RedisPoolStore.connect(config(prefix), StoreSettings.DEFAULTS);
    }

    /**
     * SCAN + UNLINK of every key of {@code prefix} (which holds no glob specials): under it, and the
     * pool store's hash-tagged keys {@code {<prefix>...}}.
     */
    static void deleteKeys(String prefix) {
        deleteMatching(prefix + "*");
        deleteMatching("{" + prefix + "*");
    }

    private static void deleteMatching(String pattern) {
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", 6379).build()) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                List<String> keys = page.getResult();
                if (!keys.isEmpty()) {
                    c.unlink(keys.toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }
}
