--[[
extract.lua: candidate selection and AVAILABLE -> EXTRACTED (removal + tombstone) in one atomic
step (PoolStore.extract, docs/design.md#extraction E1). Two callers can never receive the same proxy, an
allOrNothing shortfall changes nothing, and the gateway reserve is read from the modified state.
KEYS: the pool keys of common.lua, [1..17], and the reservation keys [18] and [19]
      (RedisKeys.withReservations), then with a filter that has a set term the set of its narrowest
      one [20] (RedisPoolStore.extractKeys: an empty one proves a shortfall on a pool indexed alike)
ARGV: [1] now (epoch ms), [2] count, [3] allOrNothing '1', partial '0', reserve 'r' (below) or
      count 'c' (what partial would take, nothing changed: {0, n}),
      [4] gateway reserve,
      [5] minRemainingTtl (ms), [6] maxHealthAge (ms, 0 = none), [7] tombstone retention for
      proxies without expiry (ms), [8] expired proxies to purge first (bound), [9] random seed,
      [10] n filter terms, then n triples kind ('u' upstream | 'p' protocol | 'l' label |
      'c' composite: a = the label items of the declared dimensions the filter names, at most one), a, b,
      then the caller's index tag (ProxyCodec.indexTag; common.lua indexed_alike), and in reserve
      mode after it: reservation token, its deadline (epoch ms)
Returns: {1, r...} extracted (each the record the Java side decodes), or
         {0, available} allOrNothing insufficient (what partial would have taken), or
         {2, n} reserve mode: n proxies chosen as partial would and reserved under the token
         instead of extracted (KEYS [18] and [19] given; commit.lua / release.lua finish them)
Reserve mode is the Redis Cluster store's allOrNothing across shards: reserve on each shard,
commit when the total is met, release otherwise (a dead caller's reservation ends at its deadline).
Algorithm and complexity (n = pool size, never scanned):
  1. only with a reserve: total = SCARD T a - its expired members; allowance = min(count,
     total - reserve), O(log n + e log n);
  2. no filter: SPOP T a allowance (the chosen leave T a in one command; a popped proxy that
     fails a test goes back, SADD, or is dropped when expired), O(k);
  3. a filter with a composite term (two or more labels of store.index.dimensions): its range of
     T i first, windows of `allowance` members from a random id on (every member has those labels);
     short, or another filter: the base is the smallest range of T i of its single terms (one
     ZLEXCOUNT each; an empty one proves at once that nothing matches), read from a random id on
     (ZRANGEBYLEX LIMIT; from the start of the range when the part to its end fell short),
     O(log n + k);
  4. candidates' records in one HMGET T r; the other terms, expiry and min remaining TTL are
     tested on the record in Lua (HGET T c only with maxHealthAge; a proxy held by health is
     not met: common.lua T o); a passing candidate
     is taken when SREM T a removes it (0: reserved), O(k);
  5. when short: windows growing x4 (cap 1024), up to 4 (SRANDMEMBER T a without a filter),
     then every member of the base once, in pages by rank (SSCAN / ZRANGE), O(|base| log n) --
     exact counts require proving that no more match, over the smallest base (exhaust); a
     composite range is that proof itself when
     every stored proxy is indexed under the caller's tag (common.lua indexed_alike: its members
     are then every proxy with those labels), else the base is a single term's range (proxies
     published under other dimensions lack the composite term); with a minRemainingTtl on such a
     pool, the range of T xa from now + that TTL (every proxy with enough time left, +inf for those
     without expiry) when it is the smaller, and none at all when it is empty (ZCOUNT, before
     anything else is read: a client asking for more time than any proxy has costs two commands);
     these wide reads test availability (SMISMEMBER T a) and the other terms (one ZMSCORE each)
     before reading records;
  6. the chosen proxies (retire_taken in common.lua): their index members (one ZREM: no dead
     entry is left for later windows), T g (one HSET: the tombstone ends; record, key holder,
     check, listing entry and T xa entry are collected later) and one HINCRBY T n per upstream,
     O(k L log n);
  7. an expired candidate met on the way is dropped, and expired proxies with it (purge_expired),
     ARGV[8] in all; the owner's periodic purge (purge.lua) does the rest.
The common cases never get here: RedisPoolStore calls extract_fast.lua first, a function of its own
with few keys and arguments (4 commands for count=1 without a filter, 5 with a filter of one set
term: ExtractionCommandCountTest), and this script only when that one answers {0} (it extracted
nothing: a shortfall, a candidate failing a test, a pop of held proxies). Here a count=1 extraction
with a composite filter plus another term runs about 7 (ZRANGEBYSCORE T h, ZRANGEBYLEX, HMGET, SREM,
ZREM, HSET, HINCRBY); one more when the window wraps, per candidate reserved or extracted since the
last purge (the fast path leaves index members to the purge), or with maxHealthAge; two more with
a gateway reserve (SCARD, ZRANGEBYSCORE).
]]
local now, count, mode = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local all_or_nothing, reserving, counting = mode == '1', mode == 'r', mode == 'c'
if reserving then -- a retried call (reply lost) finds its reservation: never a second one under the token
  local held = redis.call('HGET', K_RW, ARGV[12 + 3 * tonumber(ARGV[10])])
  if held then return { 2, #tokens(held) } end
end
local reserve, min_ttl, max_age = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local retention, purge_bound = tonumber(ARGV[7]), tonumber(ARGV[8])
math.randomseed(tonumber(ARGV[9]))

-- chosen ids and their records; unless counting, every chosen id is out of T a already (taken)
local chosen, recs, seen = {}, {}, {}

local function finish()
  if counting then return { 0, #chosen } end
  if all_or_nothing and #chosen < count then
    for _, id in ipairs(chosen) do redis.call('SADD', K_AV, id) end -- taken back: nothing changed
    return { 0, #chosen }
  end
  if reserving then
    if #chosen == 0 then return { 2, 0 } end
    local tail = 12 + 3 * tonumber(ARGV[10])
    local ids = {}
    for i, id in ipairs(chosen) do
      local h = recs[i]
      redis.call('ZREM', K_XA, id)
      redis.call('HINCRBY', K_CNT, 'a:' .. h.u, -1)
      ids[#ids + 1] = #id .. ':' .. id
    end
    redis.call('HSET', K_RW, ARGV[tail], table.concat(ids))
    redis.call('ZADD', K_RV, ARGV[tail + 1], ARGV[tail])
    return { 2, #chosen }
  end
  local out = { 1 }
  retire_taken(chosen, recs, now, retention)
  for i = 1, #chosen do out[#out + 1] = recs[i].r end
  return out
end

-- holds whose owner stopped renewing them end first (common.lua holds_lapsed; the purge ends the
-- rest): their proxies are candidates again
holds_lapsed(now, purge_bound)

local limit = count
if reserve > 0 then
  limit = math.min(count, redis.call('SCARD', K_AV) - expired_available(now) - reserve)
end
if limit <= 0 then
  return finish()
end

-- a filter with a set term (its narrowest set, KEYS[20]) on a pool indexed under the caller's tag
-- (common.lua indexed_alike): every stored, not retired proxy with the term is a member, so an empty
-- set proves at once that none matches (a routing's combination that ran dry, popped empty by the fast
-- path, costs two commands instead of a read of its ranges)
-- whether every stored proxy is indexed under the caller's tag (common.lua indexed_alike), read once
local alike_read
local function alike()
  if alike_read == nil then alike_read = indexed_alike(ARGV[11 + 3 * tonumber(ARGV[10])]) end
  return alike_read
end

if KEYS[20] and redis.call('SCARD', KEYS[20]) == 0 and alike() then
  return finish()
end

-- minRemainingTtl on a pool indexed alike (every available proxy has its T xa entry, +inf when it
-- never expires: the tag's '+x'): the proxies with enough time left are the range [now + min_ttl,
-- +inf] of T xa, counted in O(log n). None: nothing can match (a client asking for more time than
-- any proxy has costs two commands, not a read of the pool). Fewer than the filter's base: the
-- exhaustive proof reads that range instead (exhaust)
-- maxHealthAge: no proxy was checked since now - max_age when the latest check written (T n 'lc',
-- mark_checked.lua), or any check at all, is older: nothing can match (a client asking for fresher
-- checks than any costs two commands, not a read of the pool)
if max_age > 0 then
  local latest = redis.call('HGET', K_CNT, 'lc')
  if latest and now - tonumber(latest) > max_age or not latest and redis.call('HLEN', K_CHK) == 0 then
    return finish()
  end
end

local ttl_from, ttl_size
if min_ttl > 0 and alike() then
  ttl_from = now + min_ttl
  ttl_size = redis.call('ZCOUNT', K_XA, ttl_from, '+inf')
  if ttl_size == 0 then return finish() end
end

-- the filter: a composite term (declared dimensions, store.index.dimensions: every member of its
-- range has all those labels), the range term (base) of the single terms and the others, tested on
-- the record
local wanted = term_args(10)
local composite, singles = nil, {}
for _, term in ipairs(wanted) do
  local colon = string.find(term, ':', 1, true)
  if string.sub(term, colon + 1, colon + 1) == 'c' then composite = term else singles[#singles + 1] = term end
end
-- others: the terms tested on a candidate beside the range it came from
local others = {}

-- the size of the range of `term` in T i, counted once per call (ZLEXCOUNT, O(log n))
local sizes = {}
local function range_size(term)
  if not sizes[term] then sizes[term] = redis.call('ZLEXCOUNT', K_IDX, '[' .. term .. '|', '(' .. term .. '}') end
  return sizes[term]
end

-- the smallest range of the single terms (a query planner's choice, one count each) and its size,
-- nil without single terms; false when a range is empty: every available proxy not held has a
-- member for each of its single terms, whatever the index dimensions, so nothing matches (a label
-- value no proxy has, beside a country's, costs a count, not the country)
local function smallest_single()
  local best, least
  for _, term in ipairs(singles) do
    local size = range_size(term)
    if size == 0 then return false end
    if not least or size < least then best, least = term, size end
  end
  return best, least
end

-- the range path's base (smallest_single) and the others tested on its candidates; false when
-- nothing matches
local range, range_others = nil, {}
local function choose_range()
  range = smallest_single()
  if not range then return false end
  for _, term in ipairs(singles) do
    if term ~= range then range_others[#range_others + 1] = term end
  end
  return true
end

-- true when the record h (of an index member or a sampled id) also has every other term
local function has_others(h)
  if #others == 0 then return true end
  local have = {}
  for _, term in ipairs(terms(h.ix)) do have[term] = true end
  for _, term in ipairs(others) do
    if not have[term] then return false end
  end
  return true
end

-- the record tests besides the index (a proxy held by health is in neither T a nor T i: none is
-- met here): ok, expired
local function fresh(id, h)
  if h.e then
    local left = tonumber(h.e) - now
    if left <= 0 then return false, true end
    if left < min_ttl then return false, false end
  end
  if max_age > 0 then
    local c = redis.call('HGET', K_CHK, id)
    if not c then return false, false end
    local colon = string.find(c, ':', 1, true)
    if colon then c = string.sub(c, 1, colon - 1) end
    if now - tonumber(c) > max_age then return false, false end
  end
  return true, false
end

-- expired proxies met on the way are dropped, up to purge_bound in all (with purge_expired)
local dropped = 0
local function purge_once()
  if dropped < purge_bound and not counting then
    purge_expired('available', now, purge_bound - dropped)
    dropped = purge_bound
  end
end

-- tests candidate ids (popped: SPOP took them out of T a, each is settled here; bulk: many ids,
-- filtered by SMISMEMBER T a and ZMSCORE T i before their records are read); true once the
-- allowance is met
local function take(ids, popped, bulk)
  if bulk then -- a wide window or a page: set lookups first, records only of the ids passing them
    local pass = {}
    if #ids > 0 then
      for j, yes in ipairs(redis.call('SMISMEMBER', K_AV, unpack(ids))) do
        if yes == 1 and not seen[ids[j]] then pass[#pass + 1] = ids[j] end
      end
    end
    for _, term in ipairs(others) do -- one ZMSCORE per other term instead of a record per member
      if #pass == 0 then break end
      local probe = {}
      for j, id in ipairs(pass) do probe[j] = term .. '|' .. id end
      local kept = {}
      for j, score in ipairs(redis.call('ZMSCORE', K_IDX, unpack(probe))) do
        if score then kept[#kept + 1] = pass[j] end
      end
      pass = kept
    end
    ids = pass
  end
  if #ids == 0 then return false end
  local vals = redis.call('HMGET', K_REC, unpack(ids))
  local expired_seen = false
  for j, id in ipairs(ids) do
    local v = vals[j]
    if popped then
      seen[id] = true
      if v then
        local h = parse(v)
        local ok, expired = fresh(id, h)
        if ok and #chosen < limit then
          chosen[#chosen + 1], recs[#recs + 1] = id, h
        elseif expired and dropped < purge_bound then
          drop_taken(id, h)
          dropped = dropped + 1
          expired_seen = true
        else
          redis.call('SADD', K_AV, id)
        end
      end
    elseif #chosen < limit and not seen[id] then
      seen[id] = true
      if v then
        local h = parse(v)
        if has_others(h) then
          local ok, expired = fresh(id, h)
          if ok then
            local available
            if counting then
              available = redis.call('SISMEMBER', K_AV, id) == 1
            else
              available = redis.call('SREM', K_AV, id) == 1 -- 0: extracted since (T g) or reserved
            end
            if available then chosen[#chosen + 1], recs[#recs + 1] = id, h end
          elseif expired and not counting and dropped < purge_bound and redis.call('SREM', K_AV, id) == 1 then
            drop_taken(id, h)
            dropped = dropped + 1
            expired_seen = true
          end
        end
      end
    end
  end
  if expired_seen then purge_once() end
  return #chosen >= limit
end

local BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

-- windows of k members of the range of `term` from a random id on (ids are "p-" + base32, uniform),
-- wrapping once to the start of the range only when the part up to its end did not suffice; k
-- grows x4 (cap 1024) per round, up to 4 rounds. 'met' once the allowance is met, 'all' when the
-- whole range was seen, 'short' otherwise
local function windows(term, k)
  local cut = #term + 2 -- members are term .. '|' .. id
  local lo, hi = '[' .. term .. '|', '(' .. term .. '}'
  local function ids_of(ms)
    local ids = {}
    for j, m in ipairs(ms) do ids[j] = string.sub(m, cut) end
    return ids
  end
  for round = 1, 4 do
    local bulk = round > 1
    local at = {}
    for j = 1, 4 do
      local r = math.random(1, 32)
      at[j] = string.sub(BASE32, r, r)
    end
    local from = term .. '|p-' .. table.concat(at)
    local ms = redis.call('ZRANGEBYLEX', K_IDX, '[' .. from, hi, 'LIMIT', 0, k)
    if take(ids_of(ms), false, bulk) then return 'met' end
    if #ms < k then
      local more = redis.call('ZRANGEBYLEX', K_IDX, lo, '(' .. from, 'LIMIT', 0, k - #ms)
      if take(ids_of(more), false, bulk) then return 'met' end
      if #more < k - #ms then return 'all' end
    end
    k = math.min(k * 4, 1024)
  end
  return 'short'
end

-- tests every member of the range of `term` once, by rank, in pages of 1000 (wide reads); true
-- once the allowance is met
local function every(term)
  local cut = #term + 2
  local start = redis.call('ZLEXCOUNT', K_IDX, '-', '(' .. term .. '|')
  local size = range_size(term)
  for off = 0, size - 1, 1000 do
    local ids = {}
    for j, m in ipairs(redis.call('ZRANGE', K_IDX, start + off, start + math.min(off + 999, size - 1))) do
      ids[j] = string.sub(m, cut)
    end
    if take(ids, false, true) then return true end
  end
  return false
end

-- tests every proxy with min_ttl left once (T xa's range [ttl_from, +inf] by rank, in pages of 1000:
-- held, reserved and retired ids too, which take() skips by T a), for every term of the filter (one
-- ZMSCORE of T i each); true once the allowance is met. No member of the range has expired, so
-- take() drops none and the ranks stay put
local function every_ttl()
  others = wanted
  local start = redis.call('ZCOUNT', K_XA, '-inf', '(' .. ttl_from)
  for off = 0, ttl_size - 1, 1000 do
    local ids = redis.call('ZRANGE', K_XA, start + off, start + math.min(off + 999, ttl_size - 1))
    if take(ids, false, true) then return true end
  end
  return false
end

-- the exhaustive proof: every member of the smallest base once, the filter's other terms tested on
-- each (by the index in bulk): the composite range when it `covers` the filter's matches (a pool
-- indexed alike; else proxies of other dimensions lack its term, which is then not tested), each
-- single term's range, the expiry range of a minRemainingTtl, or without a filter the available
-- set. An empty range proves at once that nothing matches. True once the allowance is met
local function exhaust(covers)
  local base, least = smallest_single()
  if base == false then return false end
  if composite and covers and (not least or range_size(composite) < least) then
    base, least = composite, range_size(composite)
    if least == 0 then return false end
  end
  if not base then least = redis.call('SCARD', K_AV) end
  if ttl_size and ttl_size < least then return every_ttl() end
  others = {}
  for _, term in ipairs(wanted) do
    if term ~= base and (term ~= composite or covers) then others[#others + 1] = term end
  end
  if base then return every(base) end
  local cursor = '0'
  repeat
    local page = redis.call('SSCAN', K_AV, cursor, 'COUNT', 1000)
    cursor = page[1]
    if take(page[2], false, true) then return true end
  until cursor == '0'
  return false
end

if composite then
  -- every member has the composite's labels: the first window of `limit` members usually suffices.
  -- Short, the composite's range proves that no other proxy matches when every stored proxy is
  -- indexed under this caller's dimensions (indexed_alike): seen whole, or then read whole. Else
  -- it falls through to the single terms: proxies published before the dimensions changed lack
  -- the composite term until their next publish, and exact counts must see them
  others = singles
  local seen_all = windows(composite, limit)
  if seen_all == 'met' then return finish() end
  if alike() then
    if seen_all == 'short' then exhaust(true) end
    return finish()
  end
end

if #singles > 0 then
  if not choose_range() then return finish() end
  others = range_others
  if windows(range, math.min(4 * (limit - #chosen) + 4, 1024)) ~= 'short' then return finish() end
  -- sampling fell short: prove it by testing every member of the smallest base once, by rank
  exhaust(false)
  return finish()
end

if ttl_size and ttl_size <= 1024 then -- fewer proxies with that much time left than sampling would read
  exhaust(false)
  return finish()
end
if not counting then
  local ids = redis.call('SPOP', K_AV, limit)
  if take(ids, true, false) or #ids < limit then return finish() end -- fewer: every available id was seen
end
local size = redis.call('SCARD', K_AV)
if size == 0 then return finish() end
local k = math.min(size, 2 * (limit - #chosen) + 2)
for _ = 1, 5 do
  if take(redis.call('SRANDMEMBER', K_AV, k), false, true) then return finish() end
  if k >= size then return finish() end -- the sample was the whole base
  k = math.min(size, k * 4, 1024)
end
-- sampling fell short: prove it by testing every member of the base once
exhaust(false)
return finish()
