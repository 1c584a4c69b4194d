--[[
idempotency_begin.lua: claims an Idempotency-Key (PoolStore.beginIdempotent); of many concurrent
callers exactly one is answered 'started'.
KEYS: [1] the record hash (fields fp, resp, dl = deadline ms), [2] eviction zset (member = record
      key, score = start sequence), [3] start sequence counter
ARGV: [1] fingerprint, [2] now (epoch ms), [3] in-progress timeout (ms), [4] max records
Returns: {'started'} | {'progress'} | {'mismatch'} | {'replay', response}
Complexity: O(log m) for m records, plus O(log m) per record evicted by the size cap.
A record whose deadline has passed at now counts as absent; the key's PX (deadline - now) only
garbage-collects records that are already logically dead. Evicted records are the oldest started.
]]
local fp, now, timeout, max = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'fp', 'resp', 'dl')
if h[1] and tonumber(h[3]) > now then
  if h[1] ~= fp then return { 'mismatch' } end
  if not h[2] then return { 'progress' } end
  return { 'replay', h[2] }
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fp', fp, 'dl', string.format('%d', now + timeout))
redis.call('PEXPIRE', KEYS[1], timeout)
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), KEYS[1])
while redis.call('ZCARD', KEYS[2]) > max do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  redis.call('DEL', oldest[1])
end
return { 'started' }
