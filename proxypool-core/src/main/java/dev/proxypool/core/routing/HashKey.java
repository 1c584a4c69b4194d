package dev.proxypool.core.routing;

import java.util.Locale;

/**
 * Where a {@code consistentHash} routing takes its key ({@code routings[].hashKey}): the target
 * host (default, {@code host}) or a caller-chosen request header ({@code header:X-Account}), so
 * the same key keeps landing on the same proxy.
 *
 * @param header the request header carrying the key, lower case; empty = the target host
 */
public record HashKey(String header) {

    /** Hash on the request's target host (default). */
    public static final HashKey TARGET_HOST = new HashKey("");

    public HashKey {
        header = header == null ? "" : header.trim().toLowerCase(Locale.ROOT);
        if (header.indexOf(' ') >= 0 || header.indexOf(':') >= 0) {
            throw new IllegalArgumentException("hashKey: '" + header + "' is not a header name");
        }
    }

    /** Hash on request header {@code name}. */
    public static HashKey header(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("hashKey: header name must not be empty");
        }
        return new HashKey(name);
    }

    /** Parses {@code host} or {@code header:<Name>}. */
    public static HashKey parse(String value) {
        if (value != null) {
            String v = value.trim();
            if (v.equalsIgnoreCase("host")) {
                return TARGET_HOST;
            }
            if (v.regionMatches(true, 0, "header:", 0, 7)) {
                return header(v.substring(7));
            }
        }
        throw new IllegalArgumentException("hashKey: unknown key source '" + value + "' (expected host or header:<Name>)");
    }

    public boolean isTargetHost() {
        return header.isEmpty();
    }

    public String configName() {
        return isTargetHost() ? "host" : "header:" + header;
    }
}
