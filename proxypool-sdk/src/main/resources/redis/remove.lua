--[[
remove.lua: removes proxies in any state without tombstoning them (PoolStore.remove).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2..] proxy ids
Returns: how many were stored and are now removed
Complexity: O(r * L) commands for r ids of L labels.
]]
local P = ARGV[1]
local n = 0
for i = 2, #ARGV do
  local h = fetch(P, ARGV[i])
  if h then
    detach(P, ARGV[i], h)
    n = n + 1
  end
end
return n
