package dev.proxypool.core.dispatch;

import java.util.Locale;

/** Selection strategies of a routing ({@code routings[].strategy}). */
public enum Strategy {
    /** Smooth weighted round robin over effective weights (all weights equal: plain rotation). */
    ROUND_ROBIN("roundRobin"),
    /** Smooth weighted round robin, weights from the proxies (and health: slow start, EWMA). */
    WEIGHTED("weighted"),
    /** A uniformly random candidate (up to three draws, then a scan). */
    RANDOM("random"),
    /** Power of two choices on in-flight count. */
    LEAST_IN_FLIGHT("leastInFlight"),
    /** Lowest EWMA latency (power of two choices, so the fastest is not flooded). */
    LATENCY("latency"),
    /** Consistent hashing on the target host or a caller key: the same key keeps its proxy. */
    CONSISTENT_HASH("consistentHash"),
    /** The routing's upstreams in order: serve the current one, older ones drain (docs/design.md#sequential-switching). */
    SEQUENTIAL("sequential");

    private final String configName;

    Strategy(String configName) {
        this.configName = configName;
    }

    /**
     * The name used in configuration and on the wire.
     *
     * @return e.g. {@code roundRobin}
     */
    public String configName() {
        return configName;
    }

    /**
     * Parses the config name ({@code roundRobin}, ...), case-insensitively.
     *
     * @param value the configured name (surrounding blanks ignored)
     * @return the strategy of that name
     * @throws IllegalArgumentException naming the expected values when {@code value} is null or unknown
     */
    public static Strategy parse(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (Strategy s : values()) {
                if (s.configName.toLowerCase(Locale.ROOT).equals(v)) {
                    return s;
                }
            }
        }
        throw new IllegalArgumentException("unknown strategy '" + value
                + "' (expected roundRobin, weighted, random, leastInFlight, latency, consistentHash or sequential)");
    }

    /**
     * The config name, so messages and logs show what the configuration says.
     *
     * @return {@link #configName()}
     */
    @Override
    public String toString() {
        return configName;
    }
}
