--[[
mark_checked.lua: records a health check; a stored check never moves back (PoolStore.markChecked).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] checkedAt epoch ms, [2] nanoseconds within that ms, [3..] proxy ids
Returns: how many of the ids are stored
The latest check written (T n field 'lc', epoch ms; only ever raised) bounds every stored proxy's: an
extraction whose maxHealthAge it fails proves at once that no proxy qualifies (extract.lua).
Complexity: O(c) for c ids.
]]
local ms, ns = tonumber(ARGV[1]), tonumber(ARGV[2])
local value = ns > 0 and (ARGV[1] .. ':' .. ARGV[2]) or ARGV[1]
local n = 0
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('HEXISTS', K_REC, id) == 1 and not is_retired(id) then -- T g, T y: retired
    n = n + 1
    local old = redis.call('HGET', K_CHK, id)
    local newer = not old
    if old then
      local colon = string.find(old, ':', 1, true)
      local old_ms, old_ns = tonumber(old), 0
      if colon then
        old_ms, old_ns = tonumber(string.sub(old, 1, colon - 1)), tonumber(string.sub(old, colon + 1))
      end
      newer = ms > old_ms or (ms == old_ms and ns > old_ns)
    end
    if newer then redis.call('HSET', K_CHK, id, value) end
  end
end
if n > 0 then
  local latest = redis.call('HGET', K_CNT, 'lc')
  if not latest or tonumber(latest) < ms then redis.call('HSET', K_CNT, 'lc', ARGV[1]) end
end
return n
