--[[
mark_health.lua: holds proxies out of extraction until an end, or ends their holds
(PoolStore.markUnhealthy / markHealthy; common.lua T h).
KEYS: the pool keys of common.lua, [1..15]
ARGV: [1] end of the hold (epoch ms), '0' to end the holds, [2..] proxy ids
Returns: how many of the ids are stored
Complexity: O(c log n) for c ids.
]]
local ends = ARGV[1]
local n = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  if redis.call('HEXISTS', K_REC, id) == 1 and redis.call('HEXISTS', K_GC, id) == 0 then -- T g: retired
    n = n + 1
    if ends == '0' then
      redis.call('ZREM', K_HOLD, id)
    else
      redis.call('ZADD', K_HOLD, ends, id)
    end
  end
end
return n
