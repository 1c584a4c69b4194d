--[[
lease_renew.lua: extends a stage lease, only for its current holder (compare-and-set on the holder id).
KEYS: [1] the lease key (<prefix>lease:<stage>)
ARGV: [1] holder id, [2] ttl in milliseconds
Returns: 1 when renewed, 0 when the lease is free or held by another holder
Complexity: O(1).
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
