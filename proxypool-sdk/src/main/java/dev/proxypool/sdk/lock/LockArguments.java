package dev.proxypool.sdk.lock;

import java.time.Duration;

/** Argument checks shared by the lease implementations: messages name the argument and its value. */
final class LockArguments {

    /** Stage names become key suffixes: short, printable, no blanks. */
    static final int MAX_NAME = 200;

    private LockArguments() {}

    static String stage(String stage) {
        return name("stage", stage);
    }

    static String holder(String holderId) {
        return name("holderId", holderId);
    }

    static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero() || ttl.toMillis() < 1) {
            throw new IllegalArgumentException("ttl must be at least 1 ms, got " + ttl);
        }
        if (ttl.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("ttl must be at most 1 day, got " + ttl);
        }
        return ttl.toMillis();
    }

    private static String name(String what, String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_NAME) {
            throw new IllegalArgumentException(what + " must be 1.." + MAX_NAME + " characters, got '" + value + "'");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        what + " '" + value + "' must not contain blanks or control characters");
            }
        }
        return value;
    }
}
