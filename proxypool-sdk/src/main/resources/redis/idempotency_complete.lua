--[[
idempotency_complete.lua: stores the response of a started request, replayed until now + retention
(PoolStore.completeIdempotent). Refused when the key is held, live, for another fingerprint.
KEYS: [1] fingerprints hash, [2] deadlines hash, [3] responses hash, [4] eviction zset, [5] start
      sequence counter, [6] deadline zset (as in idempotency_begin.lua)
ARGV: [1] record, [2] fingerprint, [3] response, [4] now (epoch ms), [5] retention (ms), [6] max records
Returns: 1 stored, 0 refused
Complexity: O(log m) for m records (plus evictions, as in idempotency_begin.lua).
A live record keeps its place in the eviction order; a dead or absent one comes back as the newest.
]]
local rec, fp, resp = ARGV[1], ARGV[2], ARGV[3]
local now, retention, max = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local held = redis.call('HGET', KEYS[1], rec)
local live = held and tonumber(redis.call('HGET', KEYS[2], rec)) > now
if live and held ~= fp then return 0 end
local deadline = string.format('%d', now + retention)
redis.call('HSET', KEYS[1], rec, fp)
redis.call('HSET', KEYS[2], rec, deadline)
redis.call('HSET', KEYS[3], rec, resp)
redis.call('ZADD', KEYS[6], deadline, rec)
if not live then
  redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[5]), rec)
  while redis.call('ZCARD', KEYS[4]) > max do
    local oldest = redis.call('ZPOPMIN', KEYS[4])[1]
    redis.call('HDEL', KEYS[1], oldest)
    redis.call('HDEL', KEYS[2], oldest)
    redis.call('HDEL', KEYS[3], oldest)
    redis.call('ZREM', KEYS[6], oldest)
  end
end
return 1
