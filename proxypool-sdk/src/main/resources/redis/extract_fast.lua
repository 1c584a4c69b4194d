--[[
extract_fast.lua: the fast path of extract.lua, which RedisPoolStore runs before common.lua and
extract.lua in one script. Creating the ~40 local functions of common.lua and extract.lua costs
several microseconds per call, more than the commands of a common extraction, so the common case
is answered here, inline, before any of them exists; anything else falls through to extract.lua
with nothing changed. Same KEYS and ARGV as extract.lua.
The common case: partial or allOrNothing (not reserve or count mode), no gateway reserve, no
maxHealthAge, no health hold on the shard (ZCARD T h = 0), and either no filter (SPOP T a) or a
filter the composite range of the declared dimensions answers exactly (the last term triple is
'c', a, '1': labels only, all of them declared dimensions). The picked ids are taken out of T a
(SPOP; filtered: SREM, after SMISMEMBER when more than one); then their records are read (HMGET)
and tested for expiry and min remaining TTL. When any id is not available (reserved), fails a test,
or fewer than `count` were found, the taken ids go back (SADD T a) and extract.lua decides: it
drops expired proxies, proves shortfalls exact and honours allOrNothing.
Otherwise each is retired as common.lua's retire_taken does: one ZREM of the composite index
members, one HSET T g of the tombstone ends, one HINCRBY T n per upstream.
A count=1 extraction: 6 commands without a filter (ZCARD, SPOP, HMGET, ZREM, HSET, HINCRBY), 7
with a covered filter (ZCARD, ZRANGEBYLEX, SREM, HMGET, ZREM, HSET, HINCRBY), one more when the
window wraps to the start of the range. ExtractionCommandCountTest.
]]
local fast_out
do
  local nt = tonumber(ARGV[10])
  local mode = ARGV[3]
  local composite = nt > 0 and ARGV[8 + 3 * nt] == 'c' and ARGV[10 + 3 * nt] == '1'
  if (mode == '0' or mode == '1') and ARGV[4] == '0' and ARGV[6] == '0' and (nt == 0 or composite)
      and tonumber(ARGV[2]) <= 1000
      and redis.call('ZCARD', KEYS[13]) == 0 then
    local now, count, min_ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[5])
    local av = KEYS[11]
    local ids, ok = {}, true
    if nt == 0 then
      ids = redis.call('SPOP', av, ARGV[2]) -- strings: a Lua number argument is formatted per call
    else
      local item = 'c:' .. ARGV[9 + 3 * nt]
      local term = #item .. ':' .. item
      local cut = #term + 2 -- members are term .. '|' .. id
      math.randomseed(tonumber(ARGV[9]))
      local B = 'abcdefghijklmnopqrstuvwxyz234567'
      local r1, r2, r3, r4 = math.random(1, 32), math.random(1, 32), math.random(1, 32), math.random(1, 32)
      local from = term .. '|p-' .. string.sub(B, r1, r1) .. string.sub(B, r2, r2) .. string.sub(B, r3, r3)
        .. string.sub(B, r4, r4)
      local ms = redis.call('ZRANGEBYLEX', KEYS[6], '[' .. from, '(' .. term .. '}', 'LIMIT', '0', ARGV[2])
      if #ms < count then -- wrap once to the start of the range
        for _, m in ipairs(redis.call('ZRANGEBYLEX', KEYS[6], '[' .. term .. '|', '(' .. from, 'LIMIT', '0', tostring(count - #ms))) do
          ms[#ms + 1] = m
        end
      end
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
      for j, id in ipairs(ids) do
        local v = vals[j]
        if not v then ok = false break end
        -- the stored value's tokens "<bytes>:<text>" (common.lua): k, u, e, en, ix, rec; only u, e
        -- and the composite items of ix become Lua strings (each string costs a hash and an
        -- allocation), the record goes back whole and the Java side takes its last token
        local c1 = string.find(v, ':', 1, true)
        local pos = c1 + tonumber(string.sub(v, 1, c1 - 1)) + 1 -- past k
        local c2 = string.find(v, ':', pos, true)
        local n2 = tonumber(string.sub(v, pos, c2 - 1))
        local u = string.sub(v, c2 + 1, c2 + n2)
        pos = c2 + n2 + 1
        local c3 = string.find(v, ':', pos, true)
        local n3 = tonumber(string.sub(v, pos, c3 - 1))
        local es = n3 > 0 and string.sub(v, c3 + 1, c3 + n3)
        pos = c3 + n3 + 1
        local c4 = string.find(v, ':', pos, true) -- en: '' or '1'
        local rounded = c4 > pos + 1 or string.byte(v, pos) ~= 48
        pos = c4 + (rounded and 2 or 1)
        local c5 = string.find(v, ':', pos, true)
        local last = c5 + tonumber(string.sub(v, pos, c5 - 1)) -- ix is v[c5 + 1 .. last]
        pos = c5 + 1
        local e = es and tonumber(es)
        if e and (e <= now or e - now < min_ttl) then ok = false break end
        up[u] = (up[u] or 0) + 1
        recs[j] = v
        ends[#ends + 1] = id
        ends[#ends + 1] = (not e and string.format('%d', now + tonumber(ARGV[7]))) or (rounded and string.format('%d', e + 1)) or es
        while pos <= last do -- its composite index members ("<bytes>:c:...") leave at once
          local colon = string.find(v, ':', pos, true)
          local n = tonumber(string.sub(v, pos, colon - 1))
          if string.byte(v, colon + 1) == 99 and string.byte(v, colon + 2) == 58 then
            zrem[#zrem + 1] = string.sub(v, pos, colon + n) .. '|' .. id
          end
          pos = colon + n + 1
        end
      end
    end
    if ok then
      if #zrem > 0 then redis.call('ZREM', KEYS[6], unpack(zrem)) end
      redis.call('HSET', KEYS[12], unpack(ends))
      for u, n in pairs(up) do redis.call('HINCRBY', KEYS[9], 'a:' .. u, n == 1 and '-1' or tostring(-n)) end
      fast_out = { 3 } -- whole stored values: RedisPoolStore takes the record token
      for j = 1, #recs do fast_out[j + 1] = recs[j] end
    elseif #ids > 0 then
      redis.call('SADD', av, unpack(ids)) -- taken back: extract.lua decides with nothing changed
    end
  end
end
if fast_out then return fast_out end
