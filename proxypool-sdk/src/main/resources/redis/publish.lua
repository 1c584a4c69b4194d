--[[
publish.lua: upsert a batch of proxies (PoolStore.upsert), atomically per batch, so the tombstone
and duplicate checks and the insert cannot interleave with an extraction.
KEYS: none (every key is computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] now (epoch ms), then per proxy: id, n, then n field/value pairs of its
      record (the hash fields of P p:<id>; "exp" in ms when it expires)
Returns: {added, refreshed, skippedTombstoned, skippedExpired, skippedDuplicate}
Complexity: O(b * (F + L)) commands for b proxies of F fields and L labels, each O(1) or O(log n).
Rules in the order of MemoryPoolStore: expired at now, tombstoned at now, key held by another id,
then add (state available, never checked) or refresh (record replaced, state and checked kept).
]]
local P, now = ARGV[1], tonumber(ARGV[2])
local added, refreshed, tombstoned, expired, duplicate = 0, 0, 0, 0, 0
local i = 3
while i <= #ARGV do
  local id, n = ARGV[i], tonumber(ARGV[i + 1])
  local flat = {}
  for j = 1, 2 * n do flat[j] = ARGV[i + 1 + j] end
  i = i + 2 + 2 * n
  local h = hmap(flat)
  local key = key_of(h)
  local tomb = redis.call('GET', P .. 't:' .. key)
  local holder = redis.call('GET', P .. 'k:' .. key)
  if h.exp and tonumber(h.exp) <= now then
    expired = expired + 1
  elseif tomb and tonumber(tomb) > now then
    tombstoned = tombstoned + 1
  elseif holder and holder ~= id then
    duplicate = duplicate + 1
  else
    if tomb then redis.call('DEL', P .. 't:' .. key) end -- ended at now: only its key TTL was left
    local pkey = P .. 'p:' .. id
    local old_flat = redis.call('HGETALL', pkey)
    if #old_flat == 0 then
      h.state = 'available'
      redis.call('HSET', pkey, 'state', 'available', unpack(flat))
      attach(P, id, h)
      added = added + 1
    else
      local old = hmap(old_flat)
      unindex(P, id, old)
      local old_key = key_of(old)
      if old_key ~= key and redis.call('GET', P .. 'k:' .. old_key) == id then
        redis.call('DEL', P .. 'k:' .. old_key)
      end
      redis.call('DEL', pkey)
      h.state = old.state
      redis.call('HSET', pkey, 'state', old.state, unpack(flat))
      if old.checked then
        h.checked = old.checked
        redis.call('HSET', pkey, 'checked', old.checked)
        if old.checkedNs then redis.call('HSET', pkey, 'checkedNs', old.checkedNs) end
      end
      attach(P, id, h)
      if old.upstream ~= h.upstream then forget_upstream_if_empty(P, old.upstream) end
      refreshed = refreshed + 1
    end
  end
end
return { added, refreshed, tombstoned, expired, duplicate }
