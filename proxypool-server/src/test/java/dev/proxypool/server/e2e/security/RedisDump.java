package dev.proxypool.server.e2e.security;

import dev.proxypool.sdk.coordination.SnapshotCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.KeyValue;

/**
 * Everything stored under a key prefix, as text to scan: each key name, and its value read the way
 * its TYPE needs (GET, HGETALL, SMEMBERS, ZRANGE, LRANGE, XRANGE). Binary values are kept byte for
 * byte (ISO-8859-1), and any value that decodes as a cluster snapshot frame (possibly deflated) is
 * also given decoded, so compression cannot hide a secret.
 */
final class RedisDump {

    /** One piece of stored text and where it came from. */
    record Item(String where, String text) {}

    private RedisDump() {}

    static List<Item> dump(RedisClient redis, String prefix) {
        List<Item> out = new ArrayList<>();
        for (String key : keys(redis, prefix)) {
            out.add(new Item("redis key name " + key, key));
            String type = redis.type(key);
            Object value = switch (type) {
                case "string" -> redis.sendCommand(Protocol.Command.GET, key);
                case "hash" -> redis.sendCommand(Protocol.Command.HGETALL, key);
                case "set" -> redis.sendCommand(Protocol.Command.SMEMBERS, key);
                case "zset" -> redis.sendCommand(Protocol.Command.ZRANGE, key, "0", "-1", "WITHSCORES");
                case "list" -> redis.sendCommand(Protocol.Command.LRANGE, key, "0", "-1");
                case "stream" -> redis.sendCommand(Protocol.Command.XRANGE, key, "-", "+");
                case "none" -> null; // expired between SCAN and TYPE
                default -> throw new AssertionError("unexpected Redis type " + type + " of " + key);
            };
            List<byte[]> parts = new ArrayList<>();
            flatten(value, parts);
            for (int i = 0; i < parts.size(); i++) {
                byte[] p = parts.get(i);
                String where = type.equals("hash")
                        ? "redis hash " + key
                                + (i % 2 == 0
                                        ? " field name #" + i / 2
                                        : " field '" + latin1(parts.get(i - 1)) + "' value")
                        : "redis " + type + " " + key + " element #" + i;
                out.add(new Item(where, latin1(p)));
                decodedFrame(p).ifPresent(f -> out.add(new Item(where + " (decoded snapshot frame)", f)));
            }
        }
        return out;
    }

    /**
     * Sorted key names of the prefix (SCAN MATCH, never KEYS): under it, and the pool store's
     * hash-tagged keys {@code {<prefix>...}}.
     */
    static TreeSet<String> keys(RedisClient redis, String prefix) {
        TreeSet<String> keys = new TreeSet<>();
        for (String pattern : new String[] {prefix + "*", "{" + prefix + "*"}) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = redis.scan(cursor, params);
                keys.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
        return keys;
    }

    /** SCAN + UNLINK of every key of the prefix ({@link #keys}). */
    static void delete(RedisClient redis, String prefix) {
        TreeSet<String> keys = keys(redis, prefix);
        if (!keys.isEmpty()) {
            redis.unlink(keys.toArray(String[]::new));
        }
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static void flatten(Object v, List<byte[]> out) {
        switch (v) {
            case null -> {}
            case byte[] b -> out.add(b);
            case List<?> l -> l.forEach(e -> flatten(e, out));
            case Map<?, ?> m ->
                m.forEach((k, e) -> {
                    flatten(k, out);
                    flatten(e, out);
                });
            case KeyValue<?, ?> kv -> { // RESP3 map entries
                flatten(kv.getKey(), out);
                flatten(kv.getValue(), out);
            }
            case Number n -> out.add(n.toString().getBytes(StandardCharsets.UTF_8));
            case String s -> out.add(s.getBytes(StandardCharsets.UTF_8));
            // anything else would be stringified blind (an object name, not its content): refuse
            default ->
                throw new AssertionError(
                        "unexpected Redis reply element " + v.getClass().getName());
        }
    }

    private static java.util.Optional<String> decodedFrame(byte[] bytes) {
        try {
            return java.util.Optional.of(SnapshotCodec.decode(bytes).toString());
        } catch (RuntimeException notAFrame) {
            return java.util.Optional.empty();
        }
    }
}
