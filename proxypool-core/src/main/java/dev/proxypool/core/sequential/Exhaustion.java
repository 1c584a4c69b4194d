package dev.proxypool.core.sequential;

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

    /**
     * The config spelling.
     *
     * @return {@code stop}, {@code loop} or {@code stayLast}
     */
    public String configName() {
        return configName;
    }

    /**
     * Parses {@code routings[].exhaustion}, case-insensitively.
     *
     * @param value the config value
     * @return the choice
     * @throws IllegalArgumentException if the value is null or unknown
     */
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
