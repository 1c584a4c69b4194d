--[[
purge.lua: drops stored proxies (both states) expired at now and tombstones ended at now, one
bounded batch per call (PoolStore.purgeExpired); the caller repeats while a batch came back full.
KEYS: the pool keys of common.lua, [1..10]
ARGV: [1] now (epoch ms), [2] batch size per state and for tombstones
Returns: {dropped proxies, 1 when a batch was full (more may be expired) else 0}
Complexity: O(log n + b L log n) for b dropped proxies of L labels.
]]
local now, batch = tonumber(ARGV[1]), tonumber(ARGV[2])
local a = purge_expired('available', now, batch)
local d = purge_expired('disabled', now, batch)
local ended = redis.call('ZCOUNT', K_TOMB, '-inf', now) -- tombstones are the lowest ranks
if ended > 0 then
  redis.call('ZREMRANGEBYRANK', K_TOMB, 0, math.min(ended, batch) - 1)
end
return { a + d, (a == batch or d == batch or ended > batch) and 1 or 0 }
