package dev.proxypool.core.model;

import java.util.Locale;

/** What a validated proxy reveals to the destination (docs/design.md#collection-pipeline, P6). */
public enum Anonymity {
    /** Neither the client address nor proxy markers reach the destination. */
    ELITE,
    /** Proxy markers such as {@code Via} reach the destination, the client address does not. */
    ANONYMOUS,
    /** Not validated (inventory with {@code validate: false}, or not yet checked). */
    UNKNOWN;

    /**
     * The name used in config, JSON and query parameters.
     *
     * @return the lower-case constant name ({@code elite}, {@code anonymous}, {@code unknown})
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
