--[[
tombstoned.lua: whether a physical key is tombstoned at now (PoolStore.isTombstoned): its end in
T t, or the end its retired holder keeps in T g (or, retired by the fast path into T y, its expiry)
until collected (common.lua tombstone_end, which collects a holder whose tombstone
ended).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] physical key (RedisKeys.physical), [2] now (epoch ms), [3] the tombstone retention (ms) of
      a proxy without expiry
Returns: the end (epoch ms) of the active tombstone, or -1
Complexity: O(log n), O(L log n) when it collects a holder of L labels.
]]
return tombstone_end(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])) or -1
