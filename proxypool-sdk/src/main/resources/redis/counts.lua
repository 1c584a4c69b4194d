--[[
counts.lua: available and disabled counts per upstream, read at one instant (PoolStore.countsByUpstream).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P
Returns: flat {upstream, available, disabled, ...}
Complexity: O(u) for u upstreams (SCARD is O(1)).
]]
local P = ARGV[1]
local out = {}
for _, u in ipairs(redis.call('SMEMBERS', P .. 'ups')) do
  out[#out + 1] = u
  out[#out + 1] = redis.call('SCARD', P .. 'a:u:' .. u)
  out[#out + 1] = redis.call('SCARD', P .. 'd:u:' .. u)
end
return out
