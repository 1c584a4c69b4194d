--[[
mark_health.lua: holds proxies out of extraction until an end, or ends their holds
(PoolStore.markUnhealthy / markHealthy; common.lua T h and T o).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] end of the hold (epoch ms), '0' to end the holds, [2..] proxy ids
Returns: how many of the ids are stored
A hold that begins takes an extractable proxy out of T a and its T i members out (into T o:
hold_out); one that ends puts it back (hold_end); a renewal only moves the end. A reserved or
disabled proxy is held in T h alone: its release or enable finds the hold (common.lua offer).
Complexity: O(c log n) for c ids, O(c L log n) for those whose hold begins or ends.
]]
local ends = ARGV[1]
local n = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  if redis.call('HEXISTS', K_REC, id) == 1 and not is_retired(id) then -- T g, T y: retired
    n = n + 1
    if ends == '0' then
      if redis.call('ZREM', K_HOLD, id) == 1 then hold_end(id) end
    else
      redis.call('ZADD', K_HOLD, ends, id)
      hold_out(id)
    end
  end
end
return n
