package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.StoreSettings;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The machine's shared Redis at 127.0.0.1:6379 for tests: each store gets its own random key prefix
 * {@code pptest:<uuid>:}, and {@link #deleteKeys} removes every key under it (SCAN + UNLINK).
 */
final class TestRedis {

    static final String HOST = "127.0.0.1";
    static final int PORT = 6379;

    private TestRedis() {}

    static String randomPrefix() {
        return "pptest:" + UUID.randomUUID() + ":";
    }

    static RedisStoreConfig config(String prefix) {
        return RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(48);
    }

    static RedisPoolStore store(StoreSettings settings) {
        return RedisPoolStore.connect(config(randomPrefix()), settings);
    }

    /**
     * The calls of each command (lower-case names, e.g. {@code hget}, {@code config|resetstat}) in the
     * text of {@code INFO commandstats}: since the server started or its last {@code CONFIG RESETSTAT}.
     */
    static java.util.Map<String, Long> commandCalls(String commandstats) {
        java.util.Map<String, Long> calls = new java.util.TreeMap<>();
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                calls.put(name, Long.parseLong(line.replaceAll(".*\\bcalls=([0-9]+).*", "$1")));
            }
        }
        return calls;
    }

    /**
     * The commands the server on loopback port {@code port} ran while {@code work} ran (lower-case
     * names, as {@link #commandCalls}), without the counting's own and the script calls themselves
     * ({@code FCALL}, {@code EVALSHA}): the commands inside the scripts.
     */
    static java.util.Map<String, Long> commandsOf(int port, Runnable work) {
        try (redis.clients.jedis.RedisClient c = redis.clients.jedis.RedisClient.builder()
                .hostAndPort(HOST, port)
                .build()) {
            c.sendCommand(redis.clients.jedis.Protocol.Command.CONFIG, "RESETSTAT");
            work.run();
            java.util.Map<String, Long> out = commandCalls(c.info("commandstats"));
            out.remove("config|resetstat");
            out.remove("fcall");
            out.remove("evalsha");
            return out;
        }
    }

    /**
     * A store under {@code prefix} on a private redis-server on loopback port {@code port} (no
     * password, database 0; 2 s to connect, 10 s to read, 4 connections), for tests that count
     * that server's commands.
     */
    static RedisPoolStore privateStore(int port, String prefix, StoreSettings settings) {
        return RedisPoolStore.connect(
                new RedisStoreConfig(
                        HOST,
                        port,
                        "",
                        "",
                        0,
                        prefix,
                        java.time.Duration.ofSeconds(2),
                        java.time.Duration.ofSeconds(10),
                        4),
                settings);
    }

    /**
     * Deletes every key of the store of {@code prefix} on host:port (under the prefix, and under
     * the tags {@code {<prefix>...}} of the pool and idempotency keys); returns how many.
     */
    static long deleteKeys(String host, int port, String prefix) {
        return deleteMatching(host, port, glob(prefix) + "*") + deleteMatching(host, port, "{" + glob(prefix) + "*");
    }

    private static long deleteMatching(String host, int port, String pattern) {
        long n = 0;
        try (RedisClient c = RedisClient.builder().hostAndPort(host, port).build()) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
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

    /** How many keys of the store of {@code prefix} (as {@link #deleteKeys} counts them) exist. */
    static long countKeys(String host, int port, String prefix) {
        return countMatching(host, port, glob(prefix) + "*") + countMatching(host, port, "{" + glob(prefix) + "*");
    }

    private static long countMatching(String host, int port, String pattern) {
        long n = 0;
        try (RedisClient c = RedisClient.builder().hostAndPort(host, port).build()) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                n += page.getResult().size();
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return n;
    }

    /** Escapes glob specials of a prefix for SCAN MATCH. */
    private static String glob(String prefix) {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
