--[[
idempotency_abandon.lua: releases a started key after a failure (PoolStore.abandonIdempotent).
KEYS: [1] the record hash, [2] eviction zset
ARGV: [1] fingerprint
Returns: 1 released, 0 when not held in progress with this fingerprint
Complexity: O(log m) for m records.
]]
local h = redis.call('HMGET', KEYS[1], 'fp', 'resp')
if not h[1] or h[2] or h[1] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1
