package dev.proxypool.server.readiness;

import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Readiness {@code store} of a process on a Redis Cluster store: its durability
 * ({@link StoreDurability}) in the details, so {@code /observe/health} shows shards serving with
 * degraded durability after a promotion, and shards refusing writes (an explicit
 * {@code store.waitReplicas} their master cannot meet) and why. UP while any shard takes
 * extractions; DOWN only when every shard refuses them.
 */
public final class StoreReadiness {

    private StoreReadiness() {}

    public static HealthCheck of(RedisClusterPoolStore store) {
        return Readiness.of("store", () -> {
            StoreDurability d;
            try {
                d = StoreDurability.of(store);
            } catch (IllegalStateException e) { // closed while stopping
                return HealthCheckResponse.builder()
                        .status(false)
                        .detail("durability", "closed")
                        .build();
            }
            return HealthCheckResponse.builder()
                    .status(d.serving())
                    .detail("type", "redis-cluster")
                    .detail("durability", d.durability())
                    .detail("waitReplicas", d.waitReplicas())
                    .detail("degradedShards", join(d.degraded()))
                    .detail("refusingShards", join(d.refusing()))
                    .detail("unknownShards", join(d.unknown()))
                    .detail("why", d.why())
                    .build();
        });
    }

    private static String join(List<Integer> shards) {
        return shards.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
