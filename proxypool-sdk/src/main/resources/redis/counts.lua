--[[
counts.lua: available and disabled counts per upstream, read at one instant (PoolStore.countsByUpstream);
drops the counters of upstreams left without proxies.
KEYS: the pool keys of common.lua, [1..17]
ARGV: none
Returns: flat {upstream, available, disabled, ...}
Complexity: O(u) for u upstreams.
]]
local byUp, order = {}, {}
local flat = redis.call('HGETALL', K_CNT)
for i = 1, #flat, 2 do
  local field, n = flat[i], tonumber(flat[i + 1])
  -- "a:<upstream>" / "d:<upstream>"; the index tag's fields ('z', 'zp': common.lua) are no counters
  if string.sub(field, 2, 2) == ':' then
    local u = string.sub(field, 3)
    if not byUp[u] then
      byUp[u] = { 0, 0 }
      order[#order + 1] = u
    end
    if n == 0 then
      redis.call('HDEL', K_CNT, field) -- emptied since: extraction and removal leave it to us
    elseif string.sub(field, 1, 1) == 'a' then
      byUp[u][1] = n
    else
      byUp[u][2] = n
    end
  end
end
local out = {}
for _, u in ipairs(order) do
  local c = byUp[u]
  if c[1] + c[2] > 0 then
    out[#out + 1] = u
    out[#out + 1] = c[1]
    out[#out + 1] = c[2]
  end
end
return out
