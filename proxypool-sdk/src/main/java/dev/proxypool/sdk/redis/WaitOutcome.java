package dev.proxypool.sdk.redis;

/**
 * What one durable write on a Redis Cluster master waited for ({@link RedisAccess#evalDurably}).
 *
 * @param master         the master's {@code host:port}
 * @param onlineReplicas its replicas online at the write (its last {@code INFO replication}, at
 *                       most a second old), -1 when not read
 * @param waitedFor      the replicas the write waited for ({@code WAIT n}): with the default
 *                       {@code waitReplicas} 1 when the master has a replica online, else 0
 * @param refused        true when the write was refused for too few replicas (before it ran
 *                       when the master was known to have too few, else after a short {@code WAIT})
 * @param reason         why it was refused or waited for fewer than asked, empty otherwise
 */
public record WaitOutcome(String master, long onlineReplicas, int waitedFor, boolean refused, String reason) {

    public WaitOutcome {
        reason = reason == null ? "" : reason;
    }
}
