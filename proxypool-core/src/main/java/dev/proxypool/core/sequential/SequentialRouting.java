package dev.proxypool.core.sequential;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link SequentialBoard} needs to know of one {@code strategy: sequential} routing.
 *
 * @param name           the routing's name
 * @param upstreams      at least two distinct upstream names, in switching order
 * @param exhaustion     what happens after the last upstream ({@link Exhaustion#STOP} when null)
 * @param emptyThreshold consecutive {@code Empty} fetches of the current upstream that advance the
 *                       routing, at least 1 (3 by default in config)
 */
public record SequentialRouting(String name, List<String> upstreams, Exhaustion exhaustion, int emptyThreshold) {

    /** The default {@code emptyThreshold}. */
    public static final int DEFAULT_EMPTY_THRESHOLD = 3;

    /**
     * Validates the routing; the upstream list becomes an unmodifiable copy.
     *
     * @throws IllegalArgumentException naming the config key ({@code routings[<name>].<key>}) of the first
     *     invalid part
     */
    public SequentialRouting {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("routings[].name: a sequential routing needs a name");
        }
        String key = "routings[" + name + "]";
        if (upstreams == null || upstreams.size() < 2) {
            throw new IllegalArgumentException(
                    key + ".upstreams: a sequential routing needs at least two upstreams, got "
                            + (upstreams == null ? 0 : upstreams.size()));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < upstreams.size(); i++) {
            String u = upstreams.get(i);
            if (u == null || u.isBlank()) {
                throw new IllegalArgumentException(key + ".upstreams[" + i + "]: must not be empty");
            }
            if (!seen.add(u)) {
                throw new IllegalArgumentException(key + ".upstreams[" + i + "]: '" + u + "' is listed twice");
            }
        }
        upstreams = List.copyOf(upstreams);
        exhaustion = exhaustion == null ? Exhaustion.STOP : exhaustion;
        if (emptyThreshold < 1) {
            throw new IllegalArgumentException(key + ".emptyThreshold: must be at least 1, got " + emptyThreshold);
        }
    }
}
