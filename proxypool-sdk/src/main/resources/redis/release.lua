--[[
release.lua: returns reserved proxies to AVAILABLE (RedisClusterPoolStore): those of one
reservation whose extraction fell short, and those of reservations whose deadline passed at now
(their caller died or is too slow: its commit then finds nothing and extracts nothing).
KEYS: the pool keys of common.lua, [1..19]
ARGV: [1] now (epoch ms), [2] token ('' = none), [3] most ended reservations to release
Returns: how many proxies returned to AVAILABLE
Complexity: O(log n + r k) for r reservations of k proxies.
]]
local now, token, bound = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local n = 0
if token ~= '' then n = release(token) end
local ended = redis.call('ZRANGEBYSCORE', K_RV, '-inf', now, 'LIMIT', 0, bound)
for _, t in ipairs(ended) do
  n = n + release(t)
end
return n
