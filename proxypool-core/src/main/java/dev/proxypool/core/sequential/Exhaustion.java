package dev.proxypool.core.sequential;

import java.util.Locale;

/** What a sequential routing does after its last upstream ({@code routings[].exhaustion}). */
public enum Exhaustion {
    /** Stay exhausted on the last upstream and advance no further (default). */
    STOP("stop"),
    /** Wrap around to the first upstream. */
    LOOP("loop"),
    /** Keep using the last upstream, resetting its Empty count. */
    STAY_LAST("stayLast");

    private final String configName;

    Exhaustion(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Exhaustion parse(String value) {
        if (value != null) {
            for (Exhaustion e : values()) {
                if (e.configName.equalsIgnoreCase(value.trim())) {
                    return e;
                }
            }
        }
        throw new IllegalArgumentException("unknown exhaustion '" + value + "' (expected stop, loop or stayLast)");
    }
}
