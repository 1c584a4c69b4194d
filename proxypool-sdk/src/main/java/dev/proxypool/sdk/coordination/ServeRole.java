package dev.proxypool.sdk.coordination;

import java.util.Locale;

/**
 * What one {@code proxypool serve --role control|worker|all} process does (docs/architecture.md#processes-and-roles).
 * <ul>
 *   <li>{@link #CONTROL}: admin API, config persistence, the collection pipeline and the snapshot
 *       builder; publishes every pool change ({@link ControlRole}). No gateway listener.</li>
 *   <li>{@link #WORKER}: the gateway (and Distribution API) serving from a local snapshot that
 *       follows the control plane ({@link WorkerRole}); runs no pipeline and writes no config.</li>
 *   <li>{@link #ALL} (default): both in one process; with the embedded store nothing is published,
 *       with the Redis store it also publishes so separate workers can follow it.</li>
 * </ul>
 */
public enum ServeRole {
    CONTROL,
    WORKER,
    ALL;

    /** Runs the pipeline, admin writes and snapshot publishing. */
    public boolean runsControlPlane() {
        return this != WORKER;
    }

    /** Serves the gateway listener. */
    public boolean runsGateway() {
        return this != CONTROL;
    }

    /** Takes its snapshots from the control plane through Redis instead of building them from the store. */
    public boolean followsControlPlane() {
        return this == WORKER;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code control}, {@code worker} or {@code all}, case-insensitively. */
    public static ServeRole parse(String value) {
        if (value == null || value.isBlank()) {
            return ALL;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "control" -> CONTROL;
            case "worker" -> WORKER;
            case "all" -> ALL;
            default ->
                throw new IllegalArgumentException(
                        "--role '" + value + "' is unknown (expected control, worker or all)");
        };
    }
}
