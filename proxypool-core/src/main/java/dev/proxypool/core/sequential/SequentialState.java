package dev.proxypool.core.sequential;

import java.time.Instant;

/**
 * Where one sequential routing stands: immutable, exported by {@link SequentialBoard#snapshot()}
 * for persistence and the admin API ({@code GET /v1/admin/routings/{name}/sequential}) and taken
 * back by {@link SequentialBoard#restore(java.util.List)}.
 *
 * @param routing          the routing's name
 * @param index            position of the current upstream in the routing's list
 * @param upstream         the current upstream's name (restore matches by name when the list changed)
 * @param exhausted        {@code exhaustion: stop} ran past the last upstream; no further advance
 *                         until an admin reset
 * @param consecutiveEmpty Empty outcomes of the current upstream in a row, counted since it became
 *                         current
 * @param version          starts at 0, +1 on every change of this state (count included)
 * @param reason           why the position (index or exhausted flag) last changed
 * @param changedAt        wall-clock time of that change
 */
public record SequentialState(
        String routing,
        int index,
        String upstream,
        boolean exhausted,
        int consecutiveEmpty,
        long version,
        SwitchReason reason,
        Instant changedAt) {

    /**
     * Validates the state.
     *
     * @throws IllegalArgumentException naming the routing and the first invalid part
     */
    public SequentialState {
        if (routing == null || routing.isBlank()) {
            throw new IllegalArgumentException("sequential state: routing is missing");
        }
        if (index < 0) {
            throw new IllegalArgumentException(
                    "sequential state " + routing + ": index must not be negative, got " + index);
        }
        if (upstream == null || upstream.isBlank()) {
            throw new IllegalArgumentException("sequential state " + routing + ": upstream is missing");
        }
        if (consecutiveEmpty < 0) {
            throw new IllegalArgumentException(
                    "sequential state " + routing + ": consecutiveEmpty must not be negative, got " + consecutiveEmpty);
        }
        if (version < 0) {
            throw new IllegalArgumentException(
                    "sequential state " + routing + ": version must not be negative, got " + version);
        }
        if (reason == null || changedAt == null) {
            throw new IllegalArgumentException("sequential state " + routing + ": reason and changedAt are required");
        }
    }

    SequentialState withCount(int count) {
        return new SequentialState(routing, index, upstream, exhausted, count, version + 1, reason, changedAt);
    }

    SequentialState moved(int newIndex, String newUpstream, boolean nowExhausted, SwitchReason why, Instant at) {
        return new SequentialState(routing, newIndex, newUpstream, nowExhausted, 0, version + 1, why, at);
    }
}
