--[[
extract_fast.lua: the fast path of extract.lua, which RedisPoolStore runs before common.lua and
extract.lua in one script. Creating the ~40 local functions of common.lua and extract.lua costs
several microseconds per call, more than the commands of a common extraction, so the common case
is answered here, inline, before any of them exists; anything else falls through to extract.lua
with nothing changed. Same KEYS and ARGV as extract.lua.
The common case, chosen by RedisPoolStore (extractArgs), which then passes the fast path's ARGV
after the terms (at fa = 11 + 3 * n terms): [fa] 'f', [fa+1] the tombstone end of a proxy without
expiry (now + retention), [fa+2] '' without a filter, else the bounds of the composite range's
windows, built by the Java side so the script builds no string: [fa+2] '[<term>|' (the range's
start, whose length also cuts the id off a member), [fa+3] '[<term>|p-<4 random id chars>' (the
window from a random id on), [fa+4] '(<term>}' (the range's end), [fa+5] '(<term>|p-<same>' (the
wrap's end). The common case: partial or allOrNothing (not reserve or count mode), no gateway
reserve, no maxHealthAge, count <= 1000, and either no filter (SPOP T a) or a filter the composite
range of the declared dimensions answers exactly (labels only, all of them declared dimensions);
here also no health hold on the shard (ZCARD T h = 0). The picked ids are taken out of T a
(SPOP; filtered: SREM, after SMISMEMBER when more than one); then their stored values (HMGET T r)
and what the fast path needs of them, ready to use (HMGET T f: expiry, tombstone end, counter
field and composite members, unpacked by cmsgpack: no stored value is parsed in Lua), and they are
tested for expiry and min remaining TTL. When any id is not available (reserved), fails a test,
or fewer than `count` were found, the taken ids go back (SADD T a) and extract.lua decides: it
drops expired proxies, proves shortfalls exact and honours allOrNothing.
Otherwise each is retired as common.lua's retire_taken does: one ZREM of the composite index
members, one HSET T g of the tombstone ends, one HINCRBY T n per upstream.
A count=1 extraction: 7 commands without a filter (ZCARD, SPOP, HMGET T r, HMGET T f, ZREM, HSET,
HINCRBY), 8 with a covered filter (ZCARD, ZRANGEBYLEX, SREM, HMGET T r, HMGET T f, ZREM, HSET,
HINCRBY), one more when the window wraps to the start of the range. ExtractionCommandCountTest.
]]
local fast_out
do
  local fa = 11 + 3 * tonumber(ARGV[10]) -- the fast path's arguments follow the terms (RedisPoolStore)
  if ARGV[fa] == 'f' and (ARGV[3] == '0' or ARGV[3] == '1') and redis.call('ZCARD', KEYS[13]) == 0 then
    local now, count, min_ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[5])
    local av = KEYS[11]
    local ids, ok = {}, true
    local lo = ARGV[fa + 2]
    if lo == '' then
      ids = redis.call('SPOP', av, ARGV[2]) -- strings: a Lua number argument is formatted per call
    else
      local ms = redis.call('ZRANGEBYLEX', KEYS[6], ARGV[fa + 3], ARGV[fa + 4], 'LIMIT', '0', ARGV[2])
      if #ms < count then -- wrap once to the start of the range
        for _, m in ipairs(redis.call('ZRANGEBYLEX', KEYS[6], lo, ARGV[fa + 5], 'LIMIT', '0', tostring(count - #ms))) do
          ms[#ms + 1] = m
        end
      end
      local cut = #lo -- members are term .. '|' .. id, lo is '[' .. term .. '|'
      for j, m in ipairs(ms) do ids[j] = string.sub(m, cut) end
      if #ids == 1 then
        ok = redis.call('SREM', av, ids[1]) == 1
        if not ok then ids = {} end
      elseif #ids > 1 then
        for _, yes in ipairs(redis.call('SMISMEMBER', av, unpack(ids))) do
          if yes == 0 then ok = false end
        end
        if ok then redis.call('SREM', av, unpack(ids)) else ids = {} end
      end
    end
    ok = ok and #ids == count
    local recs, ends, zrem, up = {}, {}, {}, {}
    if ok then
      local vals = redis.call('HMGET', KEYS[1], unpack(ids))
      local fast = redis.call('HMGET', KEYS[14], unpack(ids))
      for j, id in ipairs(ids) do
        local v, f = vals[j], fast[j]
        if not v or not f then ok = false break end -- f missing: stored by the previous version
        -- T f (common.lua fast_value): expiresAt (0 = never), tombstone end ('' = never), counter
        -- field, composite members; the stored value goes back whole, the Java side decodes it
        local t = { cmsgpack.unpack(f) }
        local e = t[1]
        if e > 0 and (e <= now or e - now < min_ttl) then ok = false break end
        local field = t[3]
        up[field] = (up[field] or 0) + 1
        recs[j] = v
        ends[#ends + 1] = id
        ends[#ends + 1] = e > 0 and t[2] or ARGV[fa + 1]
        for k = 4, #t do zrem[#zrem + 1] = t[k] end
      end
    end
    if ok then
      if #zrem > 0 then redis.call('ZREM', KEYS[6], unpack(zrem)) end
      redis.call('HSET', KEYS[12], unpack(ends))
      for field, n in pairs(up) do redis.call('HINCRBY', KEYS[9], field, n == 1 and '-1' or tostring(-n)) end
      fast_out = { 3 } -- whole stored values: RedisPoolStore takes the record token
      for j = 1, #recs do fast_out[j + 1] = recs[j] end
    elseif #ids > 0 then
      redis.call('SADD', av, unpack(ids)) -- taken back: extract.lua decides with nothing changed
    end
  end
end
if fast_out then return fast_out end
