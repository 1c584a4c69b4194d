--[[
set_disabled.lua: moves one proxy between AVAILABLE and DISABLED (PoolStore.setDisabled).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] id, [3] '1' to disable, '0' to enable
Returns: 1 when the proxy is stored, else 0
Complexity: O(L) commands for a proxy of L labels.
]]
local P, id = ARGV[1], ARGV[2]
local h = fetch(P, id)
if not h then return 0 end
local want = ARGV[3] == '1' and 'disabled' or 'available'
if h.s ~= want then
  unindex(P, id, h)
  h.s = want
  redis.call('HSET', P .. 'p:' .. id, 's', want)
  index(P, id, h)
end
return 1
