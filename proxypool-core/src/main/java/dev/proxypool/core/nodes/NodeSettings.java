package dev.proxypool.core.nodes;

import java.time.Duration;

/**
 * Timing of node registration, all judged on the control plane's clock.
 *
 * @param heartbeatInterval how often a node is told to heartbeat (default 10 s)
 * @param livenessTimeout   a node whose last heartbeat is older than this is dead and leaves the
 *                          pool (default 30 s: three missed heartbeats); more than the interval
 * @param credentialTtl     lifetime of a credential, renewed by each heartbeat (default 10 min);
 *                          at least the liveness timeout
 * @param sweepInterval     how often the background sweeper looks for dead nodes (default 2 s)
 */
public record NodeSettings(
        Duration heartbeatInterval, Duration livenessTimeout, Duration credentialTtl, Duration sweepInterval) {

    /** The defaults given on the components: 10 s, 30 s, 10 min, 2 s. */
    public static final NodeSettings DEFAULTS = new NodeSettings(
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(2));

    /**
     * Validates the timing.
     *
     * @throws IllegalArgumentException naming the config key when a duration is not positive, the
     *     liveness timeout is not longer than the heartbeat interval, or the credential TTL is shorter
     *     than the liveness timeout
     */
    public NodeSettings {
        positive("nodes.heartbeatInterval", heartbeatInterval);
        positive("nodes.livenessTimeout", livenessTimeout);
        positive("nodes.credentialTtl", credentialTtl);
        positive("nodes.sweepInterval", sweepInterval);
        if (livenessTimeout.compareTo(heartbeatInterval) <= 0) {
            throw new IllegalArgumentException("nodes.livenessTimeout " + livenessTimeout
                    + " must be longer than nodes.heartbeatInterval " + heartbeatInterval);
        }
        if (credentialTtl.compareTo(livenessTimeout) < 0) {
            throw new IllegalArgumentException("nodes.credentialTtl " + credentialTtl
                    + " must be at least nodes.livenessTimeout " + livenessTimeout);
        }
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }
}
