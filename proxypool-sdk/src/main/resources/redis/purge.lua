--[[
purge.lua: drops stored proxies (both states) expired at now and tombstones ended at now, ends
the health holds whose end passed (common.lua holds_lapsed: back into T a and T i), and
finishes the cleanup of extracted proxies (T y first, then T g: record, key holder, index members,
...; their tombstone moves to T t), then removes stale ids from the per-term sets (T m, sets_gc), one bounded
batch per call (PoolStore.purgeExpired); the caller repeats while a batch came back full.
KEYS: the pool keys of common.lua, [1..19], then the sets the caller knows of [20...]
      (RedisKeys.withSets: every set term it has seen)
ARGV: [1] now (epoch ms), [2] batch size per state, for tombstones, for T y, for T g and for T m
      (and the entries of T f one step of the index check reads: common.lua index_check), [3] the
      caller's index tag (ProxyCodec.indexTag), [4] the tombstone retention (ms) of a proxy without
      expiry: the safe-side end (now + [4]) of an id of T y with neither an expiry nor a T g end,
      which the fast path never leaves (common.lua retiring_end)
Returns: {dropped proxies, 1 when a batch was full (more may be left) or the index check goes on
         else 0, then the set terms
         whose keys were not passed: T m entries wait for a call passing them}
Complexity: O(log n + b L log n) for b proxies of L labels.
]]
local now, batch = tonumber(ARGV[1]), tonumber(ARGV[2])
local a = purge_expired('available', now, batch)
local d = purge_expired('disabled', now, batch)
local ended = redis.call('ZCOUNT', K_TOMB, '-inf', now) -- ended tombstones are the lowest ranks
if ended > 0 then
  redis.call('ZREMRANGEBYRANK', K_TOMB, 0, math.min(ended, batch) - 1)
end
local lapsed = holds_lapsed(now, batch) -- health holds whose owner stopped renewing them: back into T a
local retiring = collect_retiring(now, tonumber(ARGV[4]), batch) -- retired by the fast path (T y)
local retired = redis.call('HRANDFIELD', K_GC, batch, 'WITHVALUES')
for i = 1, #retired, 2 do
  collect(retired[i], retired[i + 1], now)
end
local looked, missing = sets_gc(batch)
local checking = index_check(ARGV[3], batch) -- a mixed pool: is it indexed alike again?
local more = a == batch or d == batch or ended > batch or lapsed == batch or retiring == batch
  or redis.call('HLEN', K_GC) > 0
  or (looked == batch and #missing == 0) or checking
local out = { a + d, more and 1 or 0 }
for _, term in ipairs(missing) do out[#out + 1] = term end
return out
