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

    /**
     * Normalizes the header name to lower case; null becomes the target host.
     *
     * @throws IllegalArgumentException if the name contains a space or a colon
     */
    public HashKey {
        header = header == null ? "" : header.trim().toLowerCase(Locale.ROOT);
        if (header.indexOf(' ') >= 0 || header.indexOf(':') >= 0) {
            throw new IllegalArgumentException("hashKey: '" + header + "' is not a header name");
        }
    }

    /**
     * Hash on request header {@code name}.
     *
     * @param name the header's name, any case
     * @return the key source
     * @throws IllegalArgumentException if the name is blank or not a header name
     */
    public static HashKey header(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("hashKey: header name must not be empty");
        }
        return new HashKey(name);
    }

    /**
     * Parses {@code host} or {@code header:<Name>}.
     *
     * @param value the config value, {@code host} case-insensitively
     * @return the key source
     * @throws IllegalArgumentException if the value is neither form
     */
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
        throw new IllegalArgumentException(
                "hashKey: unknown key source '" + value + "' (expected host or header:<Name>)");
    }

    /**
     * Whether the key is the target host.
     *
     * @return true when no header is named
     */
    public boolean isTargetHost() {
        return header.isEmpty();
    }

    /**
     * The config spelling, which {@link #parse(String)} accepts.
     *
     * @return {@code host} or {@code header:<name>} with the name in lower case
     */
    public String configName() {
        return isTargetHost() ? "host" : "header:" + header;
    }
}
