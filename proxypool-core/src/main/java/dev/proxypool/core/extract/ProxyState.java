package dev.proxypool.core.extract;

import java.util.Locale;

/**
 * The state of a proxy held by a {@link PoolStore}. An extracted proxy is not a stored state: it
 * leaves the store and only its tombstone remains.
 */
public enum ProxyState {
    /** Extractable (subject to the request's filters) and usable by the gateway. */
    AVAILABLE,
    /** Taken out by an operator: kept, but never extracted. */
    DISABLED;

    /**
     * The lower-case name used in the admin API ({@code ?state=available}).
     *
     * @return {@code available} or {@code disabled}
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code available} or {@code disabled}, case-insensitively.
     *
     * @param value the name, surrounding whitespace ignored
     * @return the state
     * @throws IllegalArgumentException if the value is null or neither name
     */
    public static ProxyState parse(String value) {
        if (value != null) {
            String v = value.trim().toUpperCase(Locale.ROOT);
            for (ProxyState s : values()) {
                if (s.name().equals(v)) {
                    return s;
                }
            }
        }
        throw new IllegalArgumentException("unknown state '" + value + "' (expected available or disabled)");
    }
}
