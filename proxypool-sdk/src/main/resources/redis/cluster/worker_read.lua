--[[
worker_read.lua: the live workers with their heartbeat values and the published snapshot head, read
together (WorkerRegistry.Reader, the control plane's GET /v1/admin/snapshot). Liveness is Redis'
own key expiry, as in worker_live.lua; ids whose key expired leave the index.
KEYS: [1] <prefix>workers set, [2] <prefix>snapshot:full hash, [3] <prefix>snapshot:deltas stream,
      [4..n+3] <prefix>workers:<id> of each id the caller believes indexed
ARGV: [1..n] those ids, in the order of their keys
Returns: {head epoch or "", head version (max of the full's version and the stream's last id) or 0,
          the index after pruning (the caller retries with it when it holds ids it did not pass),
          {id1, value1, id2, value2, ...} of the passed ids that are live}
Complexity: O(n + index size) for n ids (workers, not proxies); one round trip when the caller's
ids are current.
]]
local found = {}
for i = 1, #ARGV do
  local value = redis.call('GET', KEYS[i + 3])
  if value then
    found[#found + 1] = ARGV[i]
    found[#found + 1] = value
  else
    redis.call('SREM', KEYS[1], ARGV[i])
  end
end
local stored = redis.call('HMGET', KEYS[2], 'e', 'v')
local head = tonumber(stored[2]) or 0
local top = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)
if top[1] then
  local last = tonumber(string.match(top[1][1], '^(%d+)-'))
  if last > head then
    head = last
  end
end
return {stored[1] or "", head, redis.call("SMEMBERS", KEYS[1]), found}
