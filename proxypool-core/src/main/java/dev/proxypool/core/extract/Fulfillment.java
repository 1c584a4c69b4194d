package dev.proxypool.core.extract;

import java.util.Locale;

/** What an extraction does when it cannot meet the requested count (docs/design.md#extraction E4, JSON {@code fulfillment}). */
public enum Fulfillment {
    /** Extract as many as possible, possibly none ({@code 200} with the real count). */
    PARTIAL("partial"),
    /** Extract exactly the requested count or nothing at all ({@code 409}). */
    ALL_OR_NOTHING("allOrNothing");

    private final String wireName;

    Fulfillment(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The JSON/CLI name: {@code partial} or {@code allOrNothing}.
     *
     * @return the name {@link #parse(String)} accepts
     */
    public String wireName() {
        return wireName;
    }

    /**
     * Parses {@code partial} or {@code allOrNothing}, case-insensitively.
     *
     * @throws IllegalArgumentException naming the bad value and the accepted ones
     * @param value the name, surrounding whitespace ignored
     * @return the fulfillment
     */
    public static Fulfillment parse(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (Fulfillment f : values()) {
                if (f.wireName.toLowerCase(Locale.ROOT).equals(v)) {
                    return f;
                }
            }
        }
        throw new IllegalArgumentException("unknown fulfillment '" + value + "' (expected partial or allOrNothing)");
    }

    @Override
    public String toString() {
        return wireName;
    }
}
