package dev.proxypool.sdk.redis;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.Jedis;

/**
 * How many replicas each Redis Cluster master has online now, by node {@code host:port}, from its
 * {@code INFO replication}, each reading trusted for {@link #FRESH}. A replica counts when its
 * link is {@code state=online}: one still in its initial sync cannot acknowledge a {@code WAIT}.
 * The count follows the topology as it is now: after a promotion the new master's count is what
 * its own {@code INFO} says, not what the shard's master had at start. Thread-safe.
 */
final class OnlineReplicas {

    /** How long one reading stands: at most one {@code INFO} per master per second, whatever the write rate. */
    static final Duration FRESH = Duration.ofSeconds(1);

    /** {@link #online} of a node that is a replica, not a master. */
    static final long NOT_A_MASTER = -2;

    private record Reading(long online, long atNanos) {}

    private final Ticker ticker;
    private final Map<String, Reading> byNode = new ConcurrentHashMap<>();

    OnlineReplicas(Ticker ticker) {
        this.ticker = ticker;
    }

    /** The count of {@code node}'s online replicas read less than {@link #FRESH} ago, if any. */
    OptionalLong fresh(String node) {
        Reading r = byNode.get(node);
        if (r == null || ticker.read() - r.atNanos() >= FRESH.toNanos()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(r.online());
    }

    /** The fresh count of {@code node}, else {@link #read} on {@code j} (a connection to that node). */
    long freshOrRead(String node, Jedis j) {
        OptionalLong f = fresh(node);
        return f.isPresent() ? f.getAsLong() : read(node, j);
    }

    /** {@code INFO replication} of {@code node} on {@code j}: its online replicas, kept as the fresh count. */
    long read(String node, Jedis j) {
        long online = online(j.info("replication"));
        byNode.put(node, new Reading(online, ticker.read()));
        return online;
    }

    /**
     * The replicas of an {@code INFO replication} text whose link is online ({@code slaveN:...,state=online,...});
     * {@link #NOT_A_MASTER} for a replica's own text ({@code role:slave}): the client's slot map is
     * stale (a failover it has not seen yet), the caller refreshes it and asks the master.
     */
    static long online(String info) {
        long n = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("role:slave")) {
                return NOT_A_MASTER;
            }
            if (line.startsWith("slave") && line.indexOf(':') > 0 && line.contains("state=online")) {
                n++;
            }
        }
        return n;
    }
}
