--[[
idempotency_complete.lua: stores the response of a started request, replayed until now + retention
(PoolStore.completeIdempotent). Refused when the key is held, live, for another fingerprint.
KEYS: [1] the record hash, [2] eviction zset, [3] start sequence counter
ARGV: [1] fingerprint, [2] response, [3] now (epoch ms), [4] retention (ms), [5] max records
Returns: 1 stored, 0 refused
Complexity: O(log m) for m records (plus evictions, as in idempotency_begin.lua).
A live record keeps its place in the eviction order; a dead or absent one comes back as the newest.
]]
local fp, resp, now, retention, max = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local h = redis.call('HMGET', KEYS[1], 'fp', 'dl')
local live = h[1] and tonumber(h[2]) > now
if live and h[1] ~= fp then return 0 end
redis.call('HSET', KEYS[1], 'fp', fp, 'resp', resp, 'dl', string.format('%d', now + retention))
redis.call('PEXPIRE', KEYS[1], retention)
if not live then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), KEYS[1])
  while redis.call('ZCARD', KEYS[2]) > max do
    local oldest = redis.call('ZPOPMIN', KEYS[2])
    redis.call('DEL', oldest[1])
  end
end
return 1
