package dev.proxypool.sdk.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reading script replies, whose bulk strings Jedis may hand over as {@code byte[]} or {@code String}. */
final class RedisReplies {

    private RedisReplies() {}

    static String string(Object o) {
        return switch (o) {
            case null -> null;
            case byte[] b -> new String(b, StandardCharsets.UTF_8);
            case String s -> s;
            default -> o.toString();
        };
    }

    static long number(Object o) {
        return switch (o) {
            case Long l -> l;
            case null -> throw new IllegalStateException("expected a number from Redis, got nothing");
            default -> Long.parseLong(string(o));
        };
    }

    static List<?> list(Object o) {
        if (o instanceof List<?> l) {
            return l;
        }
        throw new IllegalStateException("expected an array from Redis, got "
                + (o == null ? "nothing" : o.getClass().getSimpleName()));
    }
}
