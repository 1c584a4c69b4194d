--[[
worker_live.lua: which of the given workers are live (their key has not expired), dropping the
others from the index. Liveness is Redis' own key expiry: the receiver's clock, never a sender's
timestamp. The caller read the index (SMEMBERS) and passes each id with its key.
KEYS: [1] <prefix>workers set, [2..n+1] <prefix>workers:<id> of each id
ARGV: [1..n] the ids, in the order of their keys
Returns: the live ids
Complexity: O(n) for n ids (workers, not proxies).
]]
local live = {}
for i = 1, #ARGV do
  if redis.call('EXISTS', KEYS[i + 1]) == 1 then
    live[#live + 1] = ARGV[i]
  else
    redis.call('SREM', KEYS[1], ARGV[i])
  end
end
return live
