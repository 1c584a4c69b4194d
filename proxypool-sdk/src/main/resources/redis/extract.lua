--[[
extract.lua: candidate selection and AVAILABLE -> EXTRACTED (removal + tombstone) in one atomic
step (PoolStore.extract, docs/design.md#extraction E1). Two callers can never receive the same proxy, an
allOrNothing shortfall changes nothing, and the gateway reserve is read from the modified state.
KEYS: the pool keys of common.lua, [1..12]
ARGV: [1] now (epoch ms), [2] count, [3] allOrNothing '1', partial '0', reserve 'r' (below) or
      count 'c' (what partial would take, nothing changed: {0, n}),
      [4] gateway reserve,
      [5] minRemainingTtl (ms), [6] maxHealthAge (ms, 0 = none), [7] tombstone retention for
      proxies without expiry (ms), [8] expired proxies to purge first (bound), [9] random seed,
      [10] n filter terms, then n triples kind ('u' upstream | 'p' protocol | 'l' label), a, b
      and in reserve mode after the terms: reservation token, its deadline (epoch ms)
Returns: {1, r...} extracted (each the record the Java side decodes), or
         {0, available} allOrNothing insufficient (what partial would have taken), or
         {2, n} reserve mode: n proxies chosen as partial would and reserved under the token
         instead of extracted (KEYS [13] and [14] given; commit.lua / release.lua finish them)
Reserve mode is the Redis Cluster store's allOrNothing across shards: reserve on each shard,
commit when the total is met, release otherwise (a dead caller's reservation ends at its deadline).
Algorithm and complexity (n = pool size, never scanned):
  1. when any are expired (ZCOUNT T xa), drop up to ARGV[8] of them first, O(e log n);
  2. only with a reserve: total = SCARD T a - expired; allowance = min(count, total - reserve);
  3. the base is T a without a filter, else the smallest range of T i among the filter's terms
     (ZLEXCOUNT each) and its first rank (ZLEXCOUNT '-' .. start), O(log n);
  4. fast path (no filter, nothing else to test): SRANDMEMBER T a allowance, O(k);
  5. else up to 5 rounds of samples growing x4 from 2 x allowance + 2 (cap 1024): SRANDMEMBER of
     T a, or a window of the range at a random rank (ZRANGE, wrapping once); candidates of a range
     are tested against T a (SMISMEMBER: the range may hold extracted ids), then against the other
     terms with one ZMSCORE each; TTL (ZSCORE T xa) and health (HGET T c) per member only when
     they can fail, O(s log n) for s sampled;
  6. only when sampling is short: every member of the base once, in pages (SSCAN / ZRANGE),
     O(|base| log n) -- exact counts require proving that no more match;
  7. per chosen proxy (retire in common.lua): its record, availability, counter, key holder and
     check, and the tombstone (ZADD T t), while its L index members and listing entry are left to
     T g (one HSET): 8 commands, one O(log n).
A count=1 extraction with a 2-label filter runs 15 commands when its first window matches, without
a filter 10 (one more for a proxy that expires, ZREM T xa, and one more with a reserve).
]]
local now, count, all_or_nothing = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1'
local reserving = ARGV[3] == 'r'
if reserving then -- a retried call (reply lost) finds its reservation: never a second one under the token
  local held = redis.call('HGET', K_RW, ARGV[11 + 3 * tonumber(ARGV[10])])
  if held then return { 2, #tokens(held) } end
end
local reserve, min_ttl, max_age = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local retention = tonumber(ARGV[7])
math.randomseed(tonumber(ARGV[9]))

local expired_left = redis.call('ZCOUNT', K_XA, '-inf', now)
if expired_left > 0 then
  purge_expired('available', now, tonumber(ARGV[8]))
  expired_left = redis.call('ZCOUNT', K_XA, '-inf', now)
end

local function finish(chosen)
  if ARGV[3] == 'c' or (all_or_nothing and #chosen < count) then
    return { 0, #chosen }
  end
  if reserving then
    if #chosen == 0 then return { 2, 0 } end
    local tail = 11 + 3 * tonumber(ARGV[10])
    local ids = {}
    for _, id in ipairs(chosen) do
      local h = fetch(id)
      redis.call('SREM', K_AV, id)
      if h.e then redis.call('ZREM', K_XA, id) end
      redis.call('HINCRBY', K_CNT, 'a:' .. h.u, -1)
      ids[#ids + 1] = #id .. ':' .. id
    end
    redis.call('HSET', K_RW, ARGV[tail], table.concat(ids))
    redis.call('ZADD', K_RV, ARGV[tail + 1], ARGV[tail])
    return { 2, #chosen }
  end
  local out = { 1 }
  for _, id in ipairs(chosen) do
    local h = fetch(id)
    retire(id, h, now, retention)
    out[#out + 1] = h.r
  end
  return out
end

local limit = count
if reserve > 0 then
  limit = math.min(count, redis.call('SCARD', K_AV) - expired_left - reserve)
end
if limit <= 0 then
  return finish({})
end

local check_ttl = min_ttl > 0 or expired_left > 0
local check_age = max_age > 0

-- the base: T a (range == nil), or a range of T i given by its term, first rank and size
local range, start, size = nil, 0, 0
local others = {}
local wanted = term_args(10)
if #wanted > 0 then
  local sizes, smallest = {}, 1
  for j, term in ipairs(wanted) do
    sizes[j] = redis.call('ZLEXCOUNT', K_IDX, '[' .. term .. '|', '(' .. term .. '}')
    if sizes[j] == 0 then return finish({}) end
    if sizes[j] < sizes[smallest] then smallest = j end
  end
  range, size = wanted[smallest], sizes[smallest]
  for j, term in ipairs(wanted) do
    if j ~= smallest then others[#others + 1] = term end
  end
  start = redis.call('ZLEXCOUNT', K_IDX, '-', '(' .. range .. '|')
elseif not check_ttl and not check_age then
  return finish(redis.call('SRANDMEMBER', K_AV, limit))
else
  size = redis.call('SCARD', K_AV)
  if size == 0 then return finish({}) end
end
local cut = range and #range + 2 -- members are range .. '|' .. id

-- the ids at offsets off .. off + k - 1 of the range (k <= size), wrapping once past its end
local function window(off, k)
  local ids = {}
  local last = math.min(off + k, size) - 1
  for _, m in ipairs(redis.call('ZRANGE', K_IDX, start + off, start + last)) do
    ids[#ids + 1] = string.sub(m, cut)
  end
  if off + k > size then
    for _, m in ipairs(redis.call('ZRANGE', K_IDX, start, start + off + k - size - 1)) do
      ids[#ids + 1] = string.sub(m, cut)
    end
  end
  return ids
end

-- the per-member tests besides the index
local function lives(id)
  if check_ttl then
    local e = redis.call('ZSCORE', K_XA, id)
    if e then
      local left = tonumber(e) - now
      if left <= 0 or left < min_ttl then return false end
    end
  end
  if check_age then
    local c = redis.call('HGET', K_CHK, id)
    if not c then return false end
    local colon = string.find(c, ':', 1, true)
    if colon then c = string.sub(c, 1, colon - 1) end
    if now - tonumber(c) > max_age then return false end
  end
  return true
end

local chosen, seen = {}, {}
-- tests candidate ids of the base; true once the allowance is met
local function take(ids)
  if #ids == 0 then return false end
  local pass = {}
  for j = 1, #ids do pass[j] = true end
  if range then -- a range may hold ids extracted since (T g): only T a is exact
    local available = redis.call('SMISMEMBER', K_AV, unpack(ids))
    for j = 1, #ids do
      if available[j] == 0 then pass[j] = false end
    end
  end
  for _, term in ipairs(others) do -- one ZMSCORE per other term instead of a ZSCORE per member
    local probe = {}
    for j, id in ipairs(ids) do probe[j] = term .. '|' .. id end
    local scores = redis.call('ZMSCORE', K_IDX, unpack(probe))
    for j = 1, #ids do
      if not scores[j] then pass[j] = false end
    end
  end
  for j, id in ipairs(ids) do
    if not seen[id] then
      seen[id] = true
      if pass[j] and lives(id) then
        chosen[#chosen + 1] = id
        if #chosen == limit then return true end
      end
    end
  end
  return false
end

local function sample(k)
  if range then return window(math.random(0, size - 1), k) end
  return redis.call('SRANDMEMBER', K_AV, k)
end

local k = math.min(size, 2 * limit + 2)
for _ = 1, 5 do
  if take(sample(k)) then return finish(chosen) end
  if k >= size then return finish(chosen) end -- the sample was the whole base
  k = math.min(size, k * 4, 1024)
end

-- sampling fell short: prove it by testing every member of the base once
if range then
  for off = 0, size - 1, 1000 do
    if take(window(off, math.min(1000, size - off))) then return finish(chosen) end
  end
else
  local cursor = '0'
  repeat
    local page = redis.call('SSCAN', K_AV, cursor, 'COUNT', 1000)
    cursor = page[1]
    if take(page[2]) then return finish(chosen) end
  until cursor == '0'
end
return finish(chosen)
