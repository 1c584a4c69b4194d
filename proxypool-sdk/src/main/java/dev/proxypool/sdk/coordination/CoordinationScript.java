package dev.proxypool.sdk.coordination;

import dev.proxypool.sdk.redis.RedisScript;

/** The Lua scripts of the cluster, read from {@code src/main/resources/redis/cluster/}. */
final class CoordinationScript {

    static final RedisScript PUBLISH = RedisScript.resource("/redis/cluster/snapshot_publish.lua");
    static final RedisScript HEAD = RedisScript.resource("/redis/cluster/snapshot_head.lua");
    static final RedisScript HEARTBEAT = RedisScript.resource("/redis/cluster/worker_heartbeat.lua");
    static final RedisScript LIVE = RedisScript.resource("/redis/cluster/worker_live.lua");
    static final RedisScript READ = RedisScript.resource("/redis/cluster/worker_read.lua");

    private CoordinationScript() {}
}
