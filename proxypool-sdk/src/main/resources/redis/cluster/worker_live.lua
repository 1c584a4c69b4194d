--[[
worker_live.lua: the ids of live workers (their key has not expired), dropping expired ids from the
index. Liveness is Redis' own key expiry: the receiver's clock, never a sender's timestamp.
KEYS: [1] <prefix>workers set
ARGV: [1] the key prefix of worker keys ("<prefix>workers:")
Returns: the live ids
Complexity: O(w) for w ids in the index (workers, not proxies).
]]
local live = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. id) == 1 then
    live[#live + 1] = id
  else
    redis.call('SREM', KEYS[1], id)
  end
end
return live
