--[[
remove.lua: removes proxies in any state without tombstoning them (PoolStore.remove).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1..] proxy ids
Returns: how many were stored and are now removed
Complexity: O(r) commands for r ids, each O(1) or O(L log n) for L labels.
]]
local n = 0
for i = 1, #ARGV do
  local h = fetch(ARGV[i])
  if h then
    detach(ARGV[i], h, state_of(ARGV[i]))
    n = n + 1
  end
end
return n
