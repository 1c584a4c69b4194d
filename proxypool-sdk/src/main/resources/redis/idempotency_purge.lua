--[[
idempotency_purge.lua: housekeeping of the eviction zset (part of PoolStore.purgeExpired): among
the oldest started records, drops those dead at now or already gone by their key TTL.
KEYS: [1] eviction zset
ARGV: [1] now (epoch ms), [2] how many of the oldest to examine
Returns: how many were dropped
Complexity: O(w log m) for a window of w records; the size cap bounds m in any case.
]]
local now = tonumber(ARGV[1])
local n = 0
for _, rec in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do
  local dl = redis.call('HGET', rec, 'dl')
  if not dl or tonumber(dl) <= now then
    redis.call('DEL', rec)
    redis.call('ZREM', KEYS[1], rec)
    n = n + 1
  end
end
return n
