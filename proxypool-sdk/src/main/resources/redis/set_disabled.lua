--[[
set_disabled.lua: moves one proxy between AVAILABLE and DISABLED (PoolStore.setDisabled).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] id, [2] '1' to disable, '0' to enable
Returns: 1 when the proxy is stored, else 0
Complexity: O(1) commands, O(L log n) for a proxy of L labels.
]]
local id = ARGV[1]
local h = fetch(id)
if not h then return 0 end
local st = state_of(id)
local want = ARGV[2] == '1' and 'disabled' or 'available'
if st ~= want then
  leave(id, h, st)
  enter(id, h, want)
end
return 1
