--[[
mark_checked.lua: records a health check; a stored check never moves back (PoolStore.markChecked).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] checkedAt epoch ms, [3] nanoseconds within that ms, [4..] proxy ids
Returns: how many of the ids are stored
Complexity: O(c) for c ids.
]]
local P, ms, ns = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local n = 0
for i = 4, #ARGV do
  local pkey = P .. 'p:' .. ARGV[i]
  if redis.call('EXISTS', pkey) == 1 then
    n = n + 1
    local old = redis.call('HMGET', pkey, 'c', 'cn')
    local old_ms, old_ns = tonumber(old[1] or '-1'), tonumber(old[2] or '0')
    if not old[1] or ms > old_ms or (ms == old_ms and ns > old_ns) then
      redis.call('HSET', pkey, 'c', ARGV[2])
      if ns > 0 then
        redis.call('HSET', pkey, 'cn', ARGV[3])
      else
        redis.call('HDEL', pkey, 'cn')
      end
    end
  end
end
return n
