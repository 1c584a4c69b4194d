--[[
get.lua: one stored proxy, read at one instant (PoolStore.get).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] id
Returns: {} when not stored, else {r, state, checked ms, checked ns} ('' when never checked)
Complexity: O(1) commands.
]]
local id = ARGV[1]
local h = fetch(id)
if not h then return {} end
local c, cn = redis.call('HGET', K_CHK, id) or '', ''
local colon = string.find(c, ':', 1, true)
if colon then c, cn = string.sub(c, 1, colon - 1), string.sub(c, colon + 1) end
return { h.r, state_of(id), c, cn }
