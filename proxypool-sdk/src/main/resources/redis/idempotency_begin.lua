--[[
idempotency_begin.lua: claims an Idempotency-Key (PoolStore.beginIdempotent); of many concurrent
callers exactly one is answered 'started'.
KEYS: [1] fingerprints hash (record -> fp), [2] deadlines hash (record -> ms), [3] responses hash
      (record -> response), [4] eviction zset (record by start sequence), [5] start sequence
      counter, [6] deadline zset (record by deadline ms, for purging)
ARGV: [1] record (the client's length-prefixed key), [2] fingerprint, [3] now (epoch ms),
      [4] in-progress timeout (ms), [5] max records
Returns: {'started'} | {'progress'} | {'mismatch'} | {'replay', response}
Complexity: O(log m) for m records, plus O(log m) per record evicted by the size cap.
A record whose deadline has passed at now counts as absent; idempotency_purge.lua drops such
records. Evicted records are the oldest started.
]]
local rec, fp, now, timeout, max = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local held = redis.call('HGET', KEYS[1], rec)
if held and tonumber(redis.call('HGET', KEYS[2], rec)) > now then
  if held ~= fp then return { 'mismatch' } end
  local resp = redis.call('HGET', KEYS[3], rec)
  if not resp then return { 'progress' } end
  return { 'replay', resp }
end
local deadline = string.format('%d', now + timeout)
redis.call('HDEL', KEYS[3], rec)
redis.call('HSET', KEYS[1], rec, fp)
redis.call('HSET', KEYS[2], rec, deadline)
redis.call('ZADD', KEYS[6], deadline, rec)
redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[5]), rec)
while redis.call('ZCARD', KEYS[4]) > max do
  local oldest = redis.call('ZPOPMIN', KEYS[4])[1]
  redis.call('HDEL', KEYS[1], oldest)
  redis.call('HDEL', KEYS[2], oldest)
  redis.call('HDEL', KEYS[3], oldest)
  redis.call('ZREM', KEYS[6], oldest)
end
return { 'started' }
