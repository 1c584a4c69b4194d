--[[
total.lua: the proxies of one shard a gateway reserve counts (RedisClusterPoolStore): available
and not expired at now, as extract.lua computes its total.
KEYS: the pool keys of common.lua, [1..12]
ARGV: [1] now (epoch ms)
Returns: SCARD T a minus the expired members of T xa
Complexity: O(log n).
]]
return redis.call('SCARD', K_AV) - redis.call('ZCOUNT', K_XA, '-inf', ARGV[1])
