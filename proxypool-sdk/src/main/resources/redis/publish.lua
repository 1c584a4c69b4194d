--[[
publish.lua: upsert a batch of proxies (PoolStore.upsert), atomically per batch, so the tombstone
and duplicate checks and the insert cannot interleave with an extraction.
KEYS: the pool keys of common.lua, [1..19], then the sets of the batch's set terms [20...]
      (RedisKeys.withSets)
ARGV: [1] now (epoch ms), [2] the publisher's index tag (ProxyCodec.indexTag: its
      store.index.dimensions and which combinations it indexes; written last in each T f value,
      common.lua index_published), [3] the tombstone retention (ms) of a proxy without expiry (the
      safe-side end of one the fast path retired, T y, that has neither an expiry nor a T g end),
      then 3 per proxy: id, its value of T r (ProxyCodec.storedValue),
      its set terms ("<bytes>:<item>" repeated, ProxyCodec.setTerms: of store.index.dimensions as
      configured now, so changing them re-indexes a proxy at its next publish)
Returns: {added, refreshed, skippedTombstoned, skippedExpired, skippedDuplicate}
Complexity: O(b) commands for b proxies, each O(1) or O(L log n) for L labels, plus one SADD per
set term (O(1)). A refresh whose set terms changed leaves the id in the sets of its old terms
until the purge (T m, sets_gc); it is no member there meanwhile (the fast path checks T f). A key whose holder
was extracted (T g, T y) and whose tombstone ended is collected first (common.lua tombstone_end).
Rules in the order of MemoryPoolStore: expired at now, tombstoned at now, key held by another id,
then add (state available, never checked) or refresh (record replaced; state, check, a reservation
and a health hold kept: leave() tells a reserved proxy, which stays out of T a and uncounted).
]]
local now, tag, retention = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local was_empty = redis.call('ZCARD', K_IDS) == 0 -- no id stored (nor retired, not yet collected)
local added, refreshed, tombstoned, expired, duplicate = 0, 0, 0, 0, 0
local sk = set_keys()
for i = 4, #ARGV, 3 do
  local id, h = ARGV[i], parse(ARGV[i + 1])
  if h.e and tonumber(h.e) <= now then
    expired = expired + 1
  else
    if tombstone_end(h.k, now, retention) then -- collects the key's retired holder once its tombstone ended
      tombstoned = tombstoned + 1
    else
      local holder = redis.call('HGET', K_KEY, h.k)
      if holder and holder ~= id then
        duplicate = duplicate + 1
      else
        local tomb = redis.call('ZSCORE', K_TOMB, h.k)
        if tomb then redis.call('ZREM', K_TOMB, h.k) end -- ended at now: only purge was left
        local retired = redis.call('HGET', K_GC, id)
        if not retired and redis.call('SISMEMBER', K_Y, id) == 1 then -- retired by the fast path
          retired = string.format('%d', retiring_end(id, now, retention))
        end
        if retired then collect(id, retired, now) end -- extracted before: no stale index member may stay
        local old = fetch(id)
        local st = 'available'
        local sets = terms(ARGV[i + 2])
        if old then
          local stale, now_in = {}, {}
          for _, term in ipairs(sets) do now_in[term] = true end
          for _, term in ipairs(set_terms_of(redis.call('HGET', K_FAST, id))) do
            if not now_in[term] then stale[#stale + 1] = term end
          end
          pend(id, stale) -- the sets of terms it no longer has: cleaned by the purge
          st = state_of(id) -- state and check are kept
          if not leave(id, old, st) then st = 'reserved' end -- out of T a until its commit or release
          if old.k ~= h.k then redis.call('HDEL', K_KEY, old.k) end
          refreshed = refreshed + 1
        else
          redis.call('ZADD', K_IDS, 0, id)
          added = added + 1
        end
        redis.call('HSET', K_REC, id, h.v)
        redis.call('HSET', K_FAST, id, fast_value(h, sets, tag)) -- what extract_fast.lua reads, ready to use
        redis.call('HSET', K_KEY, h.k, id)
        if st == 'reserved' then
          index_in(id, h.ix) -- a reserved proxy keeps its T i members (readers test T a)
        else
          enter(id, h, st)
        end
        -- a member of the set of each of its terms in every state but retired: a disabled or
        -- reserved id popped by the fast path goes back (extract_fast.lua)
        for _, term in ipairs(sets) do
          local j = sk[term]
          if j then redis.call('SADD', KEYS[j], id) end
        end
      end
    end
  end
end
if added + refreshed > 0 then index_published(tag, was_empty) end
return { added, refreshed, tombstoned, expired, duplicate }
