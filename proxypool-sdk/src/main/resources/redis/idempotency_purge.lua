--[[
idempotency_purge.lua: housekeeping of the idempotency records (part of PoolStore.purgeExpired):
drops up to a window of records whose deadline has passed at now, earliest deadline first.
KEYS: [1] fingerprints hash, [2] deadlines hash, [3] responses hash, [4] eviction zset,
      [5] deadline zset (as in idempotency_begin.lua)
ARGV: [1] now (epoch ms), [2] most records to drop
Returns: how many were dropped
Complexity: O(log m + w log m) for w dropped of m records; the size cap bounds m in any case.
]]
local dead = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, rec in ipairs(dead) do
  redis.call('HDEL', KEYS[1], rec)
  redis.call('HDEL', KEYS[2], rec)
  redis.call('HDEL', KEYS[3], rec)
  redis.call('ZREM', KEYS[4], rec)
  redis.call('ZREM', KEYS[5], rec)
end
return #dead
