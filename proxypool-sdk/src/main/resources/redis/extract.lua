--[[
extract.lua: candidate selection and AVAILABLE -> EXTRACTED (removal + tombstone) in one atomic
step (PoolStore.extract, docs/design.md#extraction E1). Two callers can never receive the same proxy, an
allOrNothing shortfall changes nothing, and the gateway reserve is read from the modified state.
KEYS: none (every key is computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] now (epoch ms), [3] count, [4] allOrNothing (1/0), [5] gateway reserve,
      [6] minRemainingTtl (ms), [7] maxHealthAge (ms, 0 = none), [8] tombstone retention for
      proxies without expiry (ms), [9] expired proxies to purge first (bound), [10] n filter
      terms, then n triples kind ('u' upstream | 'p' protocol | 'l' label), a, b
Returns: {1, r...} extracted (each the encoded record field r of P p:<id>), or
         {0, available} allOrNothing insufficient (what partial would have taken)
Algorithm and complexity (n = pool size, never scanned):
  1. when any are expired (ZCOUNT x:a), drop up to ARGV[9] of them (ZRANGEBYSCORE LIMIT), O(e log n);
  2. total = SCARD a:all - ZCOUNT x:a expired; allowance = min(count, total - reserve), O(log n);
  3. SCARD each term's set; the smallest is the base, the others are tested per member with
     SMISMEMBER; TTL (ZSCORE x:a) and health (HGET c) per member only when they can fail;
  4. fast path: no other set and nothing to test -> SRANDMEMBER base allowance, O(k);
  5. else up to 5 rounds of SRANDMEMBER samples growing x4 from 2 x allowance + 2 (cap 1024),
     each tested against the other sets with one SMISMEMBER per set, O(s) for s sampled;
  6. only when sampling is short: exhaustive over the base (SINTER with the other sets in C, or
     SSCAN batches), O(|base|) -- exact counts require proving that no more match;
  7. detach each chosen proxy from every set and write its tombstone, O(k * L).
Typical cost for a selective 2-label filter: a few dozen O(1) commands.
]]
local P, now = ARGV[1], tonumber(ARGV[2])
local count, all_or_nothing, reserve = tonumber(ARGV[3]), ARGV[4] == '1', tonumber(ARGV[5])
local min_ttl, max_age, retention = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])

local expired_left = redis.call('ZCOUNT', P .. 'x:a', '-inf', now)
if expired_left > 0 then
  purge_zset(P, P .. 'x:a', now, tonumber(ARGV[9]))
  expired_left = redis.call('ZCOUNT', P .. 'x:a', '-inf', now)
end
local total = redis.call('SCARD', P .. 'a:all') - expired_left
local limit = math.min(count, total - reserve)

local function finish(chosen)
  if all_or_nothing and #chosen < count then
    return { 0, #chosen }
  end
  local out = { 1 }
  for _, id in ipairs(chosen) do
    local h = fetch(P, id)
    detach(P, id, h)
    local ends
    if h.e then
      ends = tonumber(h.e)
      if h.en then ends = ends + 1 end -- a sub-millisecond expiry rounds the tombstone up: the safe side
    else
      ends = now + retention
    end
    redis.call('SET', P .. 't:' .. h.k, string.format('%d', ends), 'PX', string.format('%d', ends - now))
    out[#out + 1] = h.r
  end
  return out
end

if limit <= 0 then
  return finish({})
end

local base, base_size = P .. 'a:all', redis.call('SCARD', P .. 'a:all')
local others = {}
local sets = {}
for _, item in ipairs(term_items(10)) do sets[#sets + 1] = P .. 'a:' .. item end
if #sets > 0 then
  local sizes = {}
  local smallest = 1
  for j, s in ipairs(sets) do
    sizes[j] = redis.call('SCARD', s)
    if sizes[j] == 0 then return finish({}) end
    if sizes[j] < sizes[smallest] then smallest = j end
  end
  base, base_size = sets[smallest], sizes[smallest]
  for j, s in ipairs(sets) do
    if j ~= smallest then others[#others + 1] = s end
  end
end

local check_ttl = min_ttl > 0 or expired_left > 0
local check_age = max_age > 0

if #others == 0 and not check_ttl and not check_age then
  return finish(redis.call('SRANDMEMBER', base, limit))
end

-- the per-member tests besides membership of the base set
local function lives(id)
  if check_ttl then
    local e = redis.call('ZSCORE', P .. 'x:a', id)
    if e then
      local left = tonumber(e) - now
      if left <= 0 or left < min_ttl then return false end
    end
  end
  if check_age then
    local c = redis.call('HGET', P .. 'p:' .. id, 'c')
    if not c or now - tonumber(c) > max_age then return false end
  end
  return true
end

local chosen, seen = {}, {}
-- samples k members of the base; true once the allowance is met
local function sample(k)
  local ids = redis.call('SRANDMEMBER', base, k)
  local pass = {}
  for j = 1, #ids do pass[j] = true end
  for _, s in ipairs(others) do -- one SMISMEMBER per other set instead of a SISMEMBER per member
    local member = redis.call('SMISMEMBER', s, unpack(ids))
    for j = 1, #ids do
      if member[j] == 0 then pass[j] = false end
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

local k = math.min(base_size, 2 * limit + 2)
for _ = 1, 5 do
  if sample(k) then return finish(chosen) end
  if k >= base_size then return finish(chosen) end -- the sample was the whole base
  k = math.min(base_size, k * 4, 1024)
end

-- sampling fell short: prove it by walking every candidate once
if #others > 0 then
  for _, id in ipairs(redis.call('SINTER', base, unpack(others))) do
    if not seen[id] then
      seen[id] = true
      if lives(id) then
        chosen[#chosen + 1] = id
        if #chosen == limit then break end
      end
    end
  end
else
  local cursor = '0'
  repeat
    local page = redis.call('SSCAN', base, cursor, 'COUNT', 1000)
    cursor = page[1]
    for _, id in ipairs(page[2]) do
      if not seen[id] then
        seen[id] = true
        if lives(id) then
          chosen[#chosen + 1] = id
          if #chosen == limit then return finish(chosen) end
        end
      end
    end
  until cursor == '0'
end
return finish(chosen)
