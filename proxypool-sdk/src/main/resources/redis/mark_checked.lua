--[[
mark_checked.lua: records a health check; a stored check never moves back (PoolStore.markChecked).
Runs without the common.lua prelude: it touches only the records it is given.
KEYS: [1..c] P p:<id> of each proxy id (the record hashes of common.lua's layout)
ARGV: [1] checkedAt epoch ms, [2] nanoseconds within that ms
Returns: how many of the ids are stored
Complexity: O(c) for c ids.
]]
local ms, ns = tonumber(ARGV[1]), tonumber(ARGV[2])
local n = 0
for i = 1, #KEYS do
  local pkey = KEYS[i]
  if redis.call('EXISTS', pkey) == 1 then
    n = n + 1
    local old = redis.call('HMGET', pkey, 'c', 'cn')
    local old_ms, old_ns = tonumber(old[1] or '-1'), tonumber(old[2] or '0')
    if not old[1] or ms > old_ms or (ms == old_ms and ns > old_ns) then
      redis.call('HSET', pkey, 'c', ARGV[1])
      if ns > 0 then
        redis.call('HSET', pkey, 'cn', ARGV[2])
      else
        redis.call('HDEL', pkey, 'cn')
      end
    end
  end
end
return n
