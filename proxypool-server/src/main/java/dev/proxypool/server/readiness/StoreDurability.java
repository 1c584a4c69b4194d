package dev.proxypool.server.readiness;

import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.ShardWait;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Redis Cluster store's durability as an operator reads it: one summary for the readiness check
 * {@code store} and the console's Overview ({@code GET /v1/admin/snapshot}'s {@code storeDurability}).
 * {@code durability} is {@code full} (every shard's extractions wait for the replicas asked for),
 * {@code degraded} (default {@code store.waitReplicas}: shards whose master has no replica online
 * serve without a replica's acknowledgement, e.g. after a promotion), {@code refusing} (an explicit
 * {@code waitReplicas} that shards' masters cannot meet: their extractions answer 503) or
 * {@code unknown} (a master that cannot be read, e.g. during a failover).
 *
 * @param durability   the worst shard's state
 * @param waitReplicas {@code auto} (the default) or the configured number
 * @param degraded     the degraded shards
 * @param refusing     the shards refusing writes
 * @param unknown      the shards whose master cannot be read
 * @param shards       every shard's state
 */
public record StoreDurability(
        String durability,
        String waitReplicas,
        List<Integer> degraded,
        List<Integer> refusing,
        List<Integer> unknown,
        List<ShardWait> shards) {

    /** The store's durability now (reads the masters of shards not written to lately). */
    public static StoreDurability of(RedisClusterPoolStore store) {
        List<ShardWait> shards = store.durability();
        List<Integer> degraded = of(shards, ShardWait.State.DEGRADED);
        List<Integer> refusing = of(shards, ShardWait.State.REFUSING);
        List<Integer> unknown = of(shards, ShardWait.State.UNKNOWN);
        String worst = !refusing.isEmpty()
                ? "refusing"
                : !unknown.isEmpty() ? "unknown" : !degraded.isEmpty() ? "degraded" : "full";
        return new StoreDurability(
                worst,
                store.waitReplicas() == RedisClusterConfig.WAIT_AUTO ? "auto" : Integer.toString(store.waitReplicas()),
                degraded,
                refusing,
                unknown,
                shards);
    }

    private static List<Integer> of(List<ShardWait> shards, ShardWait.State state) {
        List<Integer> out = new ArrayList<>();
        for (ShardWait w : shards) {
            if (w.state() == state) {
                out.add(w.shard());
            }
        }
        return out;
    }

    /** True while at least one shard can take extractions (not every shard refusing). */
    public boolean serving() {
        return refusing.size() < shards.size();
    }

    /** One line per shard that is not full: {@code shard 3: <reason>}, joined with "; ". */
    public String why() {
        return shards.stream()
                .filter(w -> w.state() != ShardWait.State.FULL)
                .map(w -> "shard " + w.shard() + " " + w.state().wireName() + ": " + w.reason())
                .collect(Collectors.joining("; "));
    }

    /** The JSON view of the console: every field, each shard as an object. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("durability", durability);
        m.put("waitReplicas", waitReplicas);
        m.put("degradedShards", degraded);
        m.put("refusingShards", refusing);
        m.put("unknownShards", unknown);
        List<Object> list = new ArrayList<>(shards.size());
        for (ShardWait w : shards) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("shard", w.shard());
            one.put("master", w.master());
            one.put("onlineReplicas", w.onlineReplicas());
            one.put("waitReplicas", w.waitReplicas());
            one.put("state", w.state().wireName());
            one.put("reason", w.reason());
            list.add(one);
        }
        m.put("shards", list);
        return m;
    }
}
