--[[
publish.lua: upsert a batch of proxies (PoolStore.upsert), atomically per batch, so the tombstone
and duplicate checks and the insert cannot interleave with an extraction.
KEYS: none (every key is computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] now (epoch ms), then 7 per proxy: id, r (record), k (physical key),
      u (upstream), e (expiresAt ms, '' = never), en ('1' when e was rounded down, else ''),
      ix (availability set items); the fields of P p:<id> in common.lua
Returns: {added, refreshed, skippedTombstoned, skippedExpired, skippedDuplicate}
Complexity: O(b * L) commands for b proxies of L labels, each O(1) or O(log n).
Rules in the order of MemoryPoolStore: expired at now, tombstoned at now, key held by another id,
then add (state available, never checked) or refresh (record replaced, state and check kept).
]]
local P, now = ARGV[1], tonumber(ARGV[2])
local added, refreshed, tombstoned, expired, duplicate = 0, 0, 0, 0, 0
local upstreams = {}
for i = 3, #ARGV, 7 do
  local id = ARGV[i]
  local h = { r = ARGV[i + 1], k = ARGV[i + 2], u = ARGV[i + 3], ix = ARGV[i + 6] }
  if ARGV[i + 4] ~= '' then h.e = ARGV[i + 4] end
  if ARGV[i + 5] ~= '' then h.en = ARGV[i + 5] end
  local got = redis.call('MGET', P .. 't:' .. h.k, P .. 'k:' .. h.k)
  local tomb, holder = got[1], got[2]
  if h.e and tonumber(h.e) <= now then
    expired = expired + 1
  elseif tomb and tonumber(tomb) > now then
    tombstoned = tombstoned + 1
  elseif holder and holder ~= id then
    duplicate = duplicate + 1
  else
    if tomb then redis.call('DEL', P .. 't:' .. h.k) end -- ended at now: only its key TTL was left
    local pkey = P .. 'p:' .. id
    local old = fetch(P, id)
    if old then
      unindex(P, id, old)
      if old.k ~= h.k then redis.call('DEL', P .. 'k:' .. old.k) end
      h.s = old.s -- state and check are kept
      redis.call('HDEL', pkey, 'e', 'en')
      refreshed = refreshed + 1
    else
      h.s = 'available'
      added = added + 1
    end
    local fields = { 'r', h.r, 'k', h.k, 'u', h.u, 'ix', h.ix, 's', h.s }
    if h.e then fields[#fields + 1] = 'e'; fields[#fields + 1] = h.e end
    if h.en then fields[#fields + 1] = 'en'; fields[#fields + 1] = h.en end
    redis.call('HSET', pkey, unpack(fields))
    attach(P, id, h)
    upstreams[h.u] = true
  end
end
for u in pairs(upstreams) do redis.call('SADD', P .. 'ups', u) end
return { added, refreshed, tombstoned, expired, duplicate }
