--[[
lease_release.lua: gives up a stage lease, only for its current holder (compare-and-delete on the holder id).
KEYS: [1] the lease key (<prefix>lease:<stage>)
ARGV: [1] holder id
Returns: 1 when released, 0 when the lease is free or held by another holder
Complexity: O(1).
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
