package dev.proxypool.sdk.redis;

import dev.proxypool.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link ShardWait} of every shard of a {@link RedisClusterPoolStore}: updated by each durable
 * write ({@link #observed}) and by topology readings ({@link #read}), logged once per change (a
 * WARNING when a shard becomes degraded or refusing, INFO when it is full again). Thread-safe.
 */
final class ShardDurability {

    private static final System.Logger LOG = System.getLogger(RedisClusterPoolStore.class.getName());

    private record Entry(ShardWait shardWait, long atNanos) {}

    private final String store;
    private final int configured;
    private final Ticker ticker;
    private final AtomicReferenceArray<Entry> shards;

    /**
     * @param store      the store's name in log lines (its key prefix)
     * @param configured {@code store.waitReplicas} ({@link RedisClusterConfig#WAIT_AUTO} for the default)
     */
    ShardDurability(String store, int shards, int configured, Ticker ticker) {
        this.store = store;
        this.configured = configured;
        this.ticker = ticker;
        this.shards = new AtomicReferenceArray<>(shards);
        for (int i = 0; i < shards; i++) {
            this.shards.set(
                    i,
                    new Entry(
                            new ShardWait(i, "", -1, wanted(), ShardWait.State.UNKNOWN, "no write or reading yet"),
                            Long.MIN_VALUE));
        }
    }

    /** What the default and explicit settings ask for before anything is known: 1 for the default. */
    private int wanted() {
        return configured == RedisClusterConfig.WAIT_AUTO ? 1 : configured;
    }

    /** A durable write on {@code shard} and what it waited for. */
    void observed(int shard, WaitOutcome o) {
        ShardWait.State state;
        if (o.refused()) {
            state = ShardWait.State.REFUSING;
        } else if (configured == RedisClusterConfig.WAIT_AUTO && o.waitedFor() == 0) {
            state = ShardWait.State.DEGRADED;
        } else {
            state = ShardWait.State.FULL;
        }
        long online = o.onlineReplicas() >= 0
                ? o.onlineReplicas()
                : shards.get(shard).shardWait().onlineReplicas();
        set(shard, new ShardWait(shard, o.master(), online, o.waitedFor(), state, o.reason()));
    }

    /** A reading of the master serving {@code shard} (no write): what a write would wait for now. */
    void read(int shard, WaitOutcome master) {
        long online = master.onlineReplicas();
        ShardWait w;
        if (configured == RedisClusterConfig.WAIT_AUTO) {
            w = online > 0
                    ? new ShardWait(shard, master.master(), online, 1, ShardWait.State.FULL, "")
                    : new ShardWait(
                            shard,
                            master.master(),
                            0,
                            0,
                            ShardWait.State.DEGRADED,
                            master.master() + " has no replica online: writes wait for none (durability degraded)");
        } else if (online < configured) {
            w = new ShardWait(
                    shard,
                    master.master(),
                    online,
                    configured,
                    ShardWait.State.REFUSING,
                    master.master() + " has " + online + " replica(s) online, store.waitReplicas is " + configured);
        } else {
            w = new ShardWait(shard, master.master(), online, configured, ShardWait.State.FULL, "");
        }
        set(shard, w);
    }

    /** {@code shard}'s master could not be read (dead, or the cluster is failing over). */
    void unreachable(int shard, String why) {
        ShardWait last = shards.get(shard).shardWait();
        set(
                shard,
                new ShardWait(
                        shard,
                        last.master(),
                        -1,
                        last.waitReplicas(),
                        ShardWait.State.UNKNOWN,
                        "its master cannot be read: " + why));
    }

    /** True when {@code shard}'s state was set less than {@code maxAgeNanos} ago. */
    boolean fresh(int shard, long maxAgeNanos) {
        long at = shards.get(shard).atNanos();
        return at != Long.MIN_VALUE && ticker.read() - at < maxAgeNanos;
    }

    /** Every shard's state, by shard number. */
    List<ShardWait> all() {
        List<ShardWait> out = new ArrayList<>(shards.length());
        for (int i = 0; i < shards.length(); i++) {
            out.add(shards.get(i).shardWait());
        }
        return out;
    }

    private void set(int shard, ShardWait next) {
        Entry before = shards.getAndSet(shard, new Entry(next, ticker.read()));
        ShardWait prev = before.shardWait();
        if (prev.state() == next.state()
                && prev.waitReplicas() == next.waitReplicas()
                && prev.master().equals(next.master())) {
            return; // logged once per change, not per write
        }
        if (next.state() == ShardWait.State.DEGRADED || next.state() == ShardWait.State.REFUSING) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Redis Cluster store " + store + ": shard " + shard + " is "
                            + next.state().wireName()
                            + (next.state() == ShardWait.State.REFUSING
                                    ? " (extractions on it are refused, 503): "
                                    : " (extractions wait for " + next.waitReplicas() + " replicas): ")
                            + next.reason());
        } else if (next.state() == ShardWait.State.FULL && prev.state() != ShardWait.State.UNKNOWN) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Redis Cluster store " + store + ": shard " + shard + " waits for " + next.waitReplicas()
                            + " replica(s) again (master " + next.master() + ", " + next.onlineReplicas()
                            + " online)");
        }
    }
}
