--[[
idempotency_abandon.lua: releases a started key after a failure (PoolStore.abandonIdempotent).
KEYS: [1] fingerprints hash, [2] deadlines hash, [3] responses hash, [4] eviction zset,
      [5] deadline zset (as in idempotency_begin.lua)
ARGV: [1] record, [2] fingerprint
Returns: 1 released, 0 when not held in progress with this fingerprint
Complexity: O(log m) for m records.
]]
local rec = ARGV[1]
if redis.call('HGET', KEYS[1], rec) ~= ARGV[2] or redis.call('HEXISTS', KEYS[3], rec) == 1 then return 0 end
redis.call('HDEL', KEYS[1], rec)
redis.call('HDEL', KEYS[2], rec)
redis.call('ZREM', KEYS[4], rec)
redis.call('ZREM', KEYS[5], rec)
return 1
