--[[
publish.lua: upsert a batch of proxies (PoolStore.upsert), atomically per batch, so the tombstone
and duplicate checks and the insert cannot interleave with an extraction.
KEYS: the pool keys of common.lua, [1..14]
ARGV: [1] now (epoch ms), then 2 per proxy: id, its value of T r (ProxyCodec.stored)
Returns: {added, refreshed, skippedTombstoned, skippedExpired, skippedDuplicate}
Complexity: O(b) commands for b proxies, each O(1) or O(L log n) for L labels. A key whose holder
was extracted (T g) and whose tombstone ended is collected first (common.lua tombstone_end).
Rules in the order of MemoryPoolStore: expired at now, tombstoned at now, key held by another id,
then add (state available, never checked) or refresh (record replaced, state and check kept).
]]
local now = tonumber(ARGV[1])
local added, refreshed, tombstoned, expired, duplicate = 0, 0, 0, 0, 0
for i = 2, #ARGV, 2 do
  local id, h = ARGV[i], parse(ARGV[i + 1])
  if h.e and tonumber(h.e) <= now then
    expired = expired + 1
  else
    if tombstone_end(h.k, now) then -- collects the key's retired holder once its tombstone ended
      tombstoned = tombstoned + 1
    else
      local holder = redis.call('HGET', K_KEY, h.k)
      if holder and holder ~= id then
        duplicate = duplicate + 1
      else
        local tomb = redis.call('ZSCORE', K_TOMB, h.k)
        if tomb then redis.call('ZREM', K_TOMB, h.k) end -- ended at now: only purge was left
        local retired = redis.call('HGET', K_GC, id)
        if retired then collect(id, retired, now) end -- extracted before: no stale index member may stay
        local old = fetch(id)
        local st = 'available'
        if old then
          st = state_of(id) -- state and check are kept
          leave(id, old, st)
          if old.k ~= h.k then redis.call('HDEL', K_KEY, old.k) end
          refreshed = refreshed + 1
        else
          redis.call('ZADD', K_IDS, 0, id)
          added = added + 1
        end
        redis.call('HSET', K_REC, id, h.v)
        redis.call('HSET', K_FAST, id, fast_value(id, h)) -- what extract_fast.lua reads, ready to use
        redis.call('HSET', K_KEY, h.k, id)
        enter(id, h, st)
      end
    end
  end
end
return { added, refreshed, tombstoned, expired, duplicate }
