--[[
counts.lua: available and disabled counts per upstream, read at one instant (PoolStore.countsByUpstream);
drops upstreams left without proxies from P ups.
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P
Returns: flat {upstream, available, disabled, ...}
Complexity: O(u) for u upstreams (SCARD is O(1)).
]]
local P = ARGV[1]
local out = {}
for _, u in ipairs(redis.call('SMEMBERS', P .. 'ups')) do
  local a = redis.call('SCARD', P .. 'a:u:' .. u)
  local d = redis.call('SCARD', P .. 'd:u:' .. u)
  if a + d > 0 then
    out[#out + 1] = u
    out[#out + 1] = a
    out[#out + 1] = d
  else
    redis.call('SREM', P .. 'ups', u) -- emptied since: extraction and purge leave it to us
  end
end
return out
