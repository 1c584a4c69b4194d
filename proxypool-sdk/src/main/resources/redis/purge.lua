--[[
purge.lua: drops stored proxies (both states) expired at now, one bounded batch per call
(PoolStore.purgeExpired); the caller repeats while a batch came back full.
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] now (epoch ms), [3] batch size per state
Returns: {dropped, 1 when a batch was full (more may be expired) else 0}
Complexity: O(log n + b * L) for b dropped proxies of L labels.
]]
local P, now, batch = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local a = purge_zset(P, P .. 'x:a', now, batch)
local d = purge_zset(P, P .. 'x:d', now, batch)
return { a + d, (a == batch or d == batch) and 1 or 0 }
