--[[
extract_fast.lua: the common extraction, a function of its own (RedisPoolStore calls it first and
extract.lua only when it answers {0}), with only the keys and arguments it needs: the store's 20
KEYS and ~20 ARGV cost Redis microseconds per call to turn into Lua tables, more than several of
its commands. It runs none of common.lua's functions (in the library they exist already; with
EVALSHA it is sent alone), and creates no function per call.
KEYS: [1] T r, [2] T f, [3] T a, [4] T g, [5] T n, [6] T y (common.lua), then with count 1 one key
      per request (the set of its filter's first set term, T e:<term>, or T a without a filter), with
      count > 1 and a filter [7] the set of the filter's set term; with a gateway reserve, last, T xa
ARGV, count 1 (one proxy for each of one or more requests, RedisPoolStore coalescing concurrent
      ones into one call): [1] now (epoch ms, the latest of the requests'), [2] '1', [3] the number of
      requests, [4] the gateway reserve ('0': none), then for each request: now, minRemainingTtl (ms),
      the tombstone end of a proxy without expiry (now + retention), its filter's first set term
      ('' without a filter), the number of its other set terms and those terms
ARGV, count > 1: [1] now (epoch ms), [2] count (<= 1000), [3] minRemainingTtl (ms), [4] the
      tombstone end of a proxy without expiry (now + retention), [5] the filter's set term
      ("<bytes>:<item>": one upstream, one protocol, one label of store.index.dimensions, labels
      only, two or more, all of them declared dimensions: the composite, or such labels, one or
      more, with a protocol: their combination with it; with store.index.upstream, such labels, a
      protocol or both with an upstream: their combination with it), '' without a filter, then, when
      there is a gateway reserve or the filter has other set terms, [6] the reserve ('0': none) and
      [7...] those other terms (the upstream's; without labels, the protocol's: each popped
      candidate's T f must list them too)
Returns: {3, record...}: `count` proxies extracted (the records RedisPoolStore decodes: each one's
         T f item holds it, or, stored by a version before it did, the rec token of its T r value,
         read at the end); with count 1 and several requests, one record or false per request
         in their order (false: that request goes on to extract.lua); or {0}: nothing extracted,
         nothing changed but stale set members dropped: the caller runs extract.lua. With count 1
         and one request (every call of a caller alone), the bare answer instead: the record, or
         false (nil) where {0} would be: no table to build and no array to convert, about 1 us of
         script time (benchmarks/RESULTS.md, session 27).
The caller (RedisPoolStore.fastCall) uses it for partial or allOrNothing (not reserve or count
mode), no maxHealthAge, count <= 1000, no filter, a filter that is one set term, or a filter of
several set terms (labels of the declared dimensions, with or without a protocol, with an upstream,
or an upstream with a protocol): the narrowest set is popped and a candidate lacking another term is skipped
(up to 8 rounds, then {0}). A gateway reserve (single Redis: the cluster store counts
its shards under a lock and passes none) is kept when SCARD T a - ZCOUNT T xa (expired entries,
available or retired: so a lower bound of the available proxies that have not expired) - reserve
>= count; otherwise {0} before anything is popped, and extract.lua counts exactly (a pool far above
its reserve, the common case, stays on this path). Health holds need no test: a proxy held by
health is out of T a (common.lua T o), so it is never taken; as a member of a set it is popped and
put back like a reserved one, so a pool in service, where some proxies are always held by a worker
that sees them cooling or probing, keeps the fast path.
Without a filter: SPOP T a of the count; what the fast path needs of them ready to use (HGET /
HMGET T f: expiry, tombstone end, counter field, record, unpacked by cmsgpack: a stored value is
parsed in Lua only for a proxy stored before T f held its record), tested for expiry and min remaining TTL (a failure, or fewer than the count: {0}, all taken
back).
With a filter: SPOP of the set, up to 8 rounds of the count still missing; a popped id is
  - dropped from the set (stale: lazy cleanup) when it is not in T a and is retired (T y or T g:
    extracted through another set or without a filter), when it has no T f (removed, or collected
    after its extraction), or when its T f lacks the term (published again with other labels);
  - put back into the set when it is a member but not taken: its expiry or remaining TTL fails
    the test (it stays in T a: the general script or the purge drops it when expired), or it is
    not in T a and not retired (reserved, disabled, or held by health: all stay members, so a
    release, an enable or the end of a hold needs no set key), or, tested before it is taken (the filter has other
    set terms), it lacks one of them: retired or not (the purge collects it once retired);
  - taken when it is in T a (count 1: SMOVE T a T y first, which takes and retires it in one
    command, moved back when a test fails, or, when the filter has other set terms, after T f passed
    the tests, so a candidate lacking one leaves T a untouched; else HMGET T f, SMISMEMBER T a, then
    one SREM).
count 1: a proxy taken from a set is retired by that SMOVE into T y (common.lua: its tombstone end
is its expiry), one popped from T a by SADD T y; one without expiry also has its end written in
T g (HSET); one HINCRBY T n per upstream counts them. So a stale member a later pop meets is found
retired by SISMEMBER T y, but for ids the general script or a count > 1 call retired (T g).
count > 1: when fewer than `count` were found (or, without a filter, any fails the expiry test),
the taken ids go back (SADD T a, and into the set) and the answer is {0}; otherwise each is
retired: one HSET T g of the tombstone ends and one HINCRBY T n per upstream. Their records come
with T f (HMGET T r only for ids stored by a version before T f held the record).
Nothing of T i is touched: an extracted id's index members (and its other set memberships) wait for
the purge, like the general script's single-term members; readers test T a.
count=1, the common call, has its own branch before anything else is set up: SPOP without a count
and HGET instead of HMGET (bulk replies), no tables of candidates and no function created per call
(about 20 % less script time than the general branch in profiles on this project's VM; the
table-free branch another ~10 %, benchmarks/RESULTS.md). A count=1 extraction: 4 commands without a
filter (SPOP T a, HGET T f, SADD T y or, for a proxy without expiry, HSET T g, HINCRBY), 4 with a
set filter (SPOP of the set, SMOVE T a T y, HGET T f, HINCRBY; a proxy without expiry one more,
HSET T g of its end; a proxy stored by a version before T f held its record one more, HMGET T r);
a stale pop costs 3 more (SPOP, SMOVE, SISMEMBER T y; 4 with HEXISTS T g for one the general script
or a count > 1 call retired), a held one 5 (SPOP, SMOVE, SISMEMBER T y, HEXISTS T g, HGET T f) and
one SADD of the set for all put back; with other set terms (an upstream beside the labels, or a
protocol beside an upstream) the same 4 for a match, a candidate lacking a term 2 more (SPOP, HGET
T f), a stale pop 4 (SPOP, HGET T f, SMOVE, SISMEMBER T y). Several requests in one call each run
their pops and tests in turn (an id a request before took from a set is in T y: dropped as stale
by a later pop; one it popped from T a is not retired until the call's end: put back like a
reserved one) and are retired together: one SADD T y of those popped from T a, one HSET T g of the
ends of those without expiry, one HINCRBY per counter field, so n requests with a set filter
(proxies that expire) cost 3 n + 1 commands and one call instead of 4 n and n calls, n without a
filter 2 n + 2.
ExtractionCommandCountTest.
]]
local one = ARGV[2] == '1' -- one proxy for each of one or more requests (ARGV[3] of them)
local bare = one and ARGV[3] == '1' -- one request: answered by its record or false, no table
local reserve = ARGV[one and 4 or 6]
if reserve and reserve ~= '0'
    and redis.call('SCARD', KEYS[3]) - redis.call('ZCOUNT', KEYS[#KEYS], '-inf', ARGV[1]) - tonumber(reserve)
      < tonumber(ARGV[one and 3 or 2]) then
  -- the gateway reserve may not hold after it: extract.lua counts exactly
  if bare then return false end
  return { 0 }
end
local out -- the answer: {3, record...} (count 1: each request's record, or false), or {0}
local old, oslots -- taken ids whose T f item lacks the record (stored by a version before it held
-- it), and their slots in out: their records are read from T r at the end
if one then
  -- the common call: no tables of candidates, no function created, single-key commands, bulk replies
  local n, av, ty, a = tonumber(ARGV[3]), KEYS[3], KEYS[6], 5 -- a: the first argument of the request at hand
  out = { 3 }
  local ends, ys, up -- more than one request: HSET T g of the ends to write, SADD T y, HINCRBY T n
  local served = false -- whether a request was served
  for j = 1, n do
    local now, min_ttl, tomb, term = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), ARGV[a + 2], ARGV[a + 3]
    local first, last = a + 5, a + 4 + tonumber(ARGV[a + 4]) -- the filter's other set terms
    a = last + 1
    local id, t, back -- the taken id and its T f item; members to put back
    if term == '' then
      local popped = redis.call('SPOP', av)
      if popped then
        local f = redis.call('HGET', KEYS[2], popped)
        local u = f and { cmsgpack.unpack(f) }
        local e = u and u[1]
        if not u or (e > 0 and (e <= now or e - now < min_ttl)) then
          redis.call('SADD', av, popped) -- taken back: extract.lua decides (stored before T f, or expiring)
        else
          id, t = popped, u
        end
      end
    else
      local set = KEYS[6 + j]
      -- with other set terms to test (an upstream; a protocol beside an upstream), T f is read
      -- before it is taken: a candidate lacking one then leaves T a untouched
      local early = first <= last
      for _ = 1, 8 do
        local popped = redis.call('SPOP', set)
        if not popped then break end
        -- taken: whether SMOVE moved it from T a to T y (taken and retired in one command), nil
        -- until tried (first without other terms: a stale member then costs no read of T f)
        local taken = nil
        if not early then taken = redis.call('SMOVE', av, ty, popped) == 1 end
        -- not taken and retired (T y, T g): extracted through another set or without a filter, a
        -- stale member: dropped without reading more
        if taken ~= false
            or redis.call('SISMEMBER', ty, popped) == 0 and redis.call('HEXISTS', KEYS[4], popped) == 0 then
          local f = redis.call('HGET', KEYS[2], popped)
          local u = f and { cmsgpack.unpack(f) }
          local listed = false -- whether its T f lists the set's term (else a stale member: dropped)
          -- its set terms' first item: after its record ('r'), or after the 's' of a version before it
          local ft = u and (u[4] == 'r' and 6 or u[4] == 's' and 5)
          if ft then
            for k = ft, #u do
              if u[k] == term then
                listed = true
                break
              end
            end
          end
          local ok = listed and taken ~= false -- still a candidate
          if ok then -- it also lists the filter's other set terms
            for x = first, last do
              local found = false
              for k = ft, #u do
                if u[k] == ARGV[x] then
                  found = true
                  break
                end
              end
              if not found then
                ok = false
                break
              end
            end
          end
          if ok then
            local e = u[1]
            ok = not (e > 0 and (e <= now or e - now < min_ttl)) -- the expiry test (an expired one is
            -- dropped by the purge or extract.lua)
          end
          if ok and taken == nil then
            taken = redis.call('SMOVE', av, ty, popped) == 1
            if not taken then
              ok = false
              if redis.call('SISMEMBER', ty, popped) == 1 or redis.call('HEXISTS', KEYS[4], popped) == 1 then
                listed = false -- retired: stale, dropped
              end
            end
          end
          if ok then
            id, t = popped, u
            break
          end
          -- skipped: taken ones given back (SMOVE back from T y: available, no longer of this set when
          -- not listed, or stored before T f); a member that is not taken now (reserved, disabled, held
          -- by health: T o, popped from T a by an unfiltered request before this one in the call,
          -- lacking another term, failing the expiry test) stays one, so a release, an enable or a
          -- hold's end needs no set key; one removed or published again without the term is dropped
          if taken then redis.call('SMOVE', ty, av, popped) end
          if listed then
            back = back or {}
            back[#back + 1] = popped
          end
        end
      end
      if back then redis.call('SADD', set, unpack(back)) end
    end
    -- its record: in its T f item, or (stored by a version before it was there) read from T r below
    local rec = id and t[4] == 'r' and t[5]
    if id and not rec then
      old, oslots = old or {}, oslots or {}
      old[#old + 1], oslots[#oslots + 1] = id, j + 1
    end
    served = served or id ~= nil
    if not id then
      out[j + 1] = false -- this request goes on to extract.lua
    elseif n == 1 then
      out[2] = rec
      -- retired in T y, whose tombstone end is the proxy's expiry (a set's SMOVE put it there; one
      -- popped from T a goes there now); one without expiry has its end written in T g
      if t[1] == 0 then
        redis.call('HSET', KEYS[4], id, tomb)
      elseif term == '' then
        redis.call('SADD', ty, id)
      end
      redis.call('HINCRBY', KEYS[5], t[3], '-1')
    else
      out[j + 1] = rec
      if t[1] == 0 then
        ends = ends or {}
        ends[#ends + 1], ends[#ends + 2] = id, tomb
      elseif term == '' then
        ys = ys or {}
        ys[#ys + 1] = id
      end
      up = up or {}
      up[t[3]] = (up[t[3]] or 0) + 1
    end
  end
  if ends then redis.call('HSET', KEYS[4], unpack(ends)) end -- the ends of those without expiry, together
  if ys then redis.call('SADD', ty, unpack(ys)) end -- those popped from T a, retired together
  if up then -- counted together: one HINCRBY per counter field
    for field, c in pairs(up) do redis.call('HINCRBY', KEYS[5], field, tostring(-c)) end
  end
  if not served then
    if bare then return false end
    return { 0 }
  end
else -- count > 1
  out = { 0 }
  local now, count, min_ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
  local av, term = KEYS[3], ARGV[5]
  local ids, ts, back, ok = {}, {}, {}, true -- taken ids and their T f items; members to put back
  local function holds(t) -- whether a T f item still lists the popped set's term (else: a stale member)
    local ft = t[4] == 'r' and 6 or t[4] == 's' and 5
    if not ft then return false end
    for k = ft, #t do
      if t[k] == term then return true end
    end
    return false
  end
  local function matches(t) -- whether a T f item (one holds() passed) also lists the filter's other set terms, ARGV[7...]
    for x = 7, #ARGV do
      local found = false
      for k = t[4] == 'r' and 6 or 5, #t do
        if t[k] == ARGV[x] then
          found = true
          break
        end
      end
      if not found then return false end
    end
    return true
  end
  if term == '' then
    local popped = redis.call('SPOP', av, tostring(count)) -- a string: a Lua number is formatted per call
    if #popped > 0 then
      local fast = redis.call('HMGET', KEYS[2], unpack(popped))
      for j, id in ipairs(popped) do
        local f = fast[j]
        local t = f and { cmsgpack.unpack(f) }
        local e = t and t[1]
        -- stored by a version before T f, or failing the expiry test: extract.lua decides
        if not t or (e > 0 and (e <= now or e - now < min_ttl)) then ok = false end
        ids[#ids + 1], ts[#ts + 1] = id, t
      end
    end
    ok = ok and #ids == count
    if not ok and #ids > 0 then
      redis.call('SADD', av, unpack(ids)) -- taken back: {0}, extract.lua decides with nothing changed
      ids = {}
    end
  else
    local set = KEYS[7]
    local function absent(id) -- a member not in T a: retired (stale, dropped), else reserved or disabled
      if redis.call('SISMEMBER', KEYS[6], id) == 0 and redis.call('HEXISTS', KEYS[4], id) == 0 then
        back[#back + 1] = id
      end
    end
    for _ = 1, 8 do
      local need = count - #ids
      local popped = redis.call('SPOP', set, need == 1 and '1' or tostring(need))
      if #popped == 0 then break end
      local fast = redis.call('HMGET', KEYS[2], unpack(popped))
      local cand, ct = {}, {}
      for j, id in ipairs(popped) do
        local f = fast[j]
        if f then -- none: not stored (removed, collected) or stored before T f: dropped
          local t = { cmsgpack.unpack(f) }
          if holds(t) then -- else published again without the term: dropped
            local e = t[1]
            if (e > 0 and (e <= now or e - now < min_ttl)) or not matches(t) then
              back[#back + 1] = id -- a member that fails the test or lacks another term: stays one, skipped here
            else
              cand[#cand + 1], ct[#ct + 1] = id, t
            end
          end
        end
      end
      if #cand == 1 then
        if redis.call('SREM', av, cand[1]) == 1 then
          ids[#ids + 1], ts[#ts + 1] = cand[1], ct[1]
        else
          absent(cand[1])
        end
      elseif #cand > 1 then
        local got = {}
        for j, yes in ipairs(redis.call('SMISMEMBER', av, unpack(cand))) do
          if yes == 1 then
            got[#got + 1] = cand[j]
            ids[#ids + 1], ts[#ts + 1] = cand[j], ct[j]
          else
            absent(cand[j])
          end
        end
        if #got > 0 then redis.call('SREM', av, unpack(got)) end
      end
      if #ids >= count then break end
    end
    ok = #ids == count
    if not ok and #ids > 0 then
      redis.call('SADD', av, unpack(ids)) -- taken back: {0}, extract.lua decides with nothing changed
      for _, id in ipairs(ids) do back[#back + 1] = id end
      ids = {}
    end
    if #back > 0 then redis.call('SADD', set, unpack(back)) end
  end
  if ok then
    local ends, up = {}, {}
    out = { 3 }
    for j, id in ipairs(ids) do
      -- T f (common.lua fast_value): expiresAt (0 = never), tombstone end ('' = never), counter
      -- field, then 'r' and the record the Java side decodes
      local t = ts[j]
      local field = t[3]
      up[field] = (up[field] or 0) + 1
      ends[#ends + 1] = id
      ends[#ends + 1] = t[1] > 0 and t[2] or ARGV[4]
      out[j + 1] = t[4] == 'r' and t[5]
      if not out[j + 1] then
        old, oslots = old or {}, oslots or {}
        old[#old + 1], oslots[#oslots + 1] = id, j + 1
      end
    end
    redis.call('HSET', KEYS[4], unpack(ends))
    for field, n in pairs(up) do redis.call('HINCRBY', KEYS[5], field, n == 1 and '-1' or tostring(-n)) end
  end
end
if old then -- the rec token (the 6th) of each one's T r value (common.lua parse)
  local vals = redis.call('HMGET', KEYS[1], unpack(old))
  for i = 1, #old do
    local v, pos, rec = vals[i], 1, false
    for _ = 1, 6 do
      local colon = string.find(v, ':', pos, true)
      local len = tonumber(string.sub(v, pos, colon - 1))
      rec, pos = string.sub(v, colon + 1, colon + len), colon + len + 1
    end
    out[oslots[i]] = rec
  end
end
if bare then return out[2] end -- the record of the one request (served: a string)
return out
