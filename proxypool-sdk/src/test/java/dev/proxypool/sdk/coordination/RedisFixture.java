package dev.proxypool.sdk.coordination;

import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Redis for the cluster tests: the machine's shared Redis on 6379 under a random key prefix
 * (deleted afterwards with SCAN + UNLINK), or a private redis-server on a free port that a test may
 * kill and start again — never the shared one.
 */
final class RedisFixture {

    static final int SHARED_PORT = 6379;

    private RedisFixture() {}

    static String randomPrefix() {
        return "pptest:cluster:" + UUID.randomUUID() + ":";
    }

    static RedisStoreConfig config(int port, String prefix) {
        return new RedisStoreConfig(
                "127.0.0.1", port, "", "", 0, prefix, Duration.ofMillis(500), Duration.ofSeconds(2), 4);
    }

    static RedisClient client(int port) {
        return RedisClient.builder().hostAndPort("127.0.0.1", port).build();
    }

    /** Deletes every key under {@code prefix}; returns how many. */
    static long deleteKeys(int port, String prefix) {
        long n = 0;
        try (RedisClient c = client(port)) {
            ScanParams params = new ScanParams()
                    .match(prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*")
                    .count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                List<String> keys = page.getResult();
                if (!keys.isEmpty()) {
                    n += c.unlink(keys.toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return n;
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
