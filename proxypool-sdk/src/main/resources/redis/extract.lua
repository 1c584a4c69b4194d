--[[
extract.lua: candidate selection and AVAILABLE -> EXTRACTED (removal + tombstone) in one atomic
step (PoolStore.extract, docs/design.md#extraction E1). Two callers can never receive the same proxy, an
allOrNothing shortfall changes nothing, and the gateway reserve is read from the modified state.
KEYS: the pool keys of common.lua, [1..10]
ARGV: [1] now (epoch ms), [2] count, [3] allOrNothing (1/0), [4] gateway reserve,
      [5] minRemainingTtl (ms), [6] maxHealthAge (ms, 0 = none), [7] tombstone retention for
      proxies without expiry (ms), [8] expired proxies to purge first (bound), [9] random seed,
      [10] n filter terms, then n triples kind ('u' upstream | 'p' protocol | 'l' label), a, b
Returns: {1, r...} extracted (each the record the Java side decodes), or
         {0, available} allOrNothing insufficient (what partial would have taken)
Algorithm and complexity (n = pool size, never scanned; T i holds available proxies only):
  1. when any are expired (ZCOUNT T xa), drop up to ARGV[8] of them first, O(e log n);
  2. only with a reserve: total = ZLEXCOUNT of the all-available range - expired;
     allowance = min(count, total - reserve), O(log n);
  3. the base is the smallest range of T i among the filter's terms (ZLEXCOUNT each; the
     all-available range without a filter); its first rank is ZLEXCOUNT '-' .. start, O(log n);
  4. fast path (nothing else to test): allowance members at a random rank of the base (ZRANGE,
     wrapping once), O(log n + k);
  5. else up to 5 rounds of windows at random ranks growing x4 from 2 x allowance + 2 (cap 1024),
     each tested against the other terms with one ZMSCORE per term; TTL (ZSCORE T xa) and health
     (HGET T c) per member only when they can fail, O(s log n) for s sampled;
  6. only when sampling is short: every member of the base once, in pages, O(|base| log n) --
     exact counts require proving that no more match;
  7. per chosen proxy: its record, every index member (one ZREM), its counter, key holder,
     listing entry and check, and the tombstone (ZADD T t): 8 commands, O(L log n).
A count=1 extraction with a 2-label filter runs 14 commands when its first window matches, without
a filter 11 (one more for a proxy that expires, ZREM T xa, and one more with a reserve).
]]
local now, count, all_or_nothing = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1'
local reserve, min_ttl, max_age = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local retention = tonumber(ARGV[7])
math.randomseed(tonumber(ARGV[9]))

local expired_left = redis.call('ZCOUNT', K_XA, '-inf', now)
if expired_left > 0 then
  purge_expired('available', now, tonumber(ARGV[8]))
  expired_left = redis.call('ZCOUNT', K_XA, '-inf', now)
end

local function finish(chosen)
  if all_or_nothing and #chosen < count then
    return { 0, #chosen }
  end
  local out = { 1 }
  for _, id in ipairs(chosen) do
    local h = fetch(id)
    detach(id, h, 'available')
    local ends
    if h.e then
      ends = tonumber(h.e)
      if h.en then ends = ends + 1 end -- a sub-millisecond expiry rounds the tombstone up: the safe side
    else
      ends = now + retention
    end
    redis.call('ZADD', K_TOMB, string.format('%d', ends), h.k)
    out[#out + 1] = h.r
  end
  return out
end

local limit, all_size = count, nil
if reserve > 0 then
  all_size = redis.call('ZLEXCOUNT', K_IDX, '[0:|', '(0:}')
  limit = math.min(count, all_size - expired_left - reserve)
end
if limit <= 0 then
  return finish({})
end

-- the base range of T i: its term, first rank and size; the other terms to test
local base, start, size = '0:', 0, nil
local others = {}
local wanted = term_args(10)
if #wanted > 0 then
  local sizes, smallest = {}, 1
  for j, term in ipairs(wanted) do
    sizes[j] = redis.call('ZLEXCOUNT', K_IDX, '[' .. term .. '|', '(' .. term .. '}')
    if sizes[j] == 0 then return finish({}) end
    if sizes[j] < sizes[smallest] then smallest = j end
  end
  base, size = wanted[smallest], sizes[smallest]
  for j, term in ipairs(wanted) do
    if j ~= smallest then others[#others + 1] = term end
  end
  start = redis.call('ZLEXCOUNT', K_IDX, '-', '(' .. base .. '|')
else
  size = all_size or redis.call('ZLEXCOUNT', K_IDX, '[0:|', '(0:}')
  if size == 0 then return finish({}) end
end
local cut = #base + 2 -- members are base .. '|' .. id

-- the ids at offsets off .. off + k - 1 of the base (k <= size), wrapping once past its end
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

local check_ttl = min_ttl > 0 or expired_left > 0
local check_age = max_age > 0

if #others == 0 and not check_ttl and not check_age then
  return finish(window(math.random(0, size - 1), math.min(limit, size)))
end

-- the per-member tests besides membership of the base
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
-- tests ids (members of the base); true once the allowance is met
local function take(ids)
  if #ids == 0 then return false end
  local pass = {}
  for j = 1, #ids do pass[j] = true end
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

local k = math.min(size, 2 * limit + 2)
for _ = 1, 5 do
  if take(window(math.random(0, size - 1), k)) then return finish(chosen) end
  if k >= size then return finish(chosen) end -- the window was the whole base
  k = math.min(size, k * 4, 1024)
end

-- sampling fell short: prove it by testing every member of the base once
for off = 0, size - 1, 1000 do
  if take(window(off, math.min(1000, size - off))) then return finish(chosen) end
end
return finish(chosen)
