--[[
total.lua: the proxies of one shard a gateway reserve counts (RedisClusterPoolStore): available
and not expired at now, as extract.lua computes its total.
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] now (epoch ms)
Returns: SCARD T a minus its members expired at now (T xa may also hold retired ids)
Complexity: O(log n + e log n) for e expired ids (purge keeps e small).
]]
return redis.call('SCARD', K_AV) - expired_available(tonumber(ARGV[1]))
