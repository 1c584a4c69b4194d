package dev.proxypool.sdk.redis;

import java.util.Locale;

/**
 * What the writes of one shard of a {@link RedisClusterPoolStore} wait for now
 * ({@link RedisClusterPoolStore#durability()}), from its last write or topology reading.
 *
 * @param shard          the shard number
 * @param master         the {@code host:port} of the master serving the shard's slot, empty while unknown
 * @param onlineReplicas that master's replicas online, -1 while unknown
 * @param waitReplicas   the replicas an extraction on the shard waits for now: with the default
 *                       {@code store.waitReplicas} 1 while its master has a replica online, else 0;
 *                       else the configured number
 * @param state          full, degraded, refusing or unknown
 * @param reason         why it is degraded, refusing or unknown; empty when full
 */
public record ShardWait(int shard, String master, long onlineReplicas, int waitReplicas, State state, String reason) {

    /** A shard's durability. */
    public enum State {
        /** Writes wait for the replicas asked for (or none was asked for: {@code waitReplicas: 0}). */
        FULL,
        /** Default {@code waitReplicas}: the master has no replica online, writes are answered without WAIT. */
        DEGRADED,
        /** An explicit {@code waitReplicas} the master cannot meet: extractions on the shard are refused. */
        REFUSING,
        /** Not known yet (no write, no reading) or the master cannot be reached. */
        UNKNOWN;

        /** The lower-case name used in health details, JSON and metrics. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ShardWait {
        master = master == null ? "" : master;
        reason = reason == null ? "" : reason;
    }
}
