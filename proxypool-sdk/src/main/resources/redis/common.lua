--[[
common.lua: the key layout and the index bookkeeping shared by every pool script. It is not
loaded alone: RedisPoolStore prepends it to each script before SCRIPT LOAD, so all scripts agree
on one layout. Every key lives under the caller's prefix P (ARGV[1] of each pool script):

  P p:<id>            hash   the proxy record (no secret: only the credentialRef name), its state
                             ("available"/"disabled") and last health check (checked, ms)
  P k:<key>           string id holding the physical proxy <key> = proto/host/port/credRef
  P t:<key>           string tombstone end (epoch ms) of an extracted proxy; PX = end - now
  P a:all             set    ids of all available proxies
  P a:u:<upstream>    set    available ids per upstream
  P a:p:<protocol>    set    available ids per protocol
  P a:l:<n>:<k>=<v>   set    available ids per label k=v (n = byte length of k: unambiguous)
  P d:u:<upstream>    set    disabled ids per upstream
  P ups               set    upstream names that have stored proxies
  P x:a / P x:d       zset   expiring available / disabled ids by expiresAt (ms)
  P ids               zset   every stored id, all scores 0, for ZRANGEBYLEX paging

Redis Cluster: scripts compute most key names from data (the chosen proxy's labels), so on a
cluster every key of one prefix must share a slot (a hash tag such as "{pp}:" as the prefix).
On a single Redis, which is the supported deployment, no hash tag is used.
Complexity of each helper: O(L) commands for a proxy with L labels, each O(1) or O(log n).
]]

local function hmap(flat)
  local t = {}
  for i = 1, #flat, 2 do
    t[flat[i]] = flat[i + 1]
  end
  return t
end

local function key_of(h)
  return h.proto .. '/' .. h.host .. '/' .. h.port .. '/' .. (h.cred or '')
end

local function label_set(P, k, v)
  return P .. 'a:l:' .. #k .. ':' .. k .. '=' .. v
end

-- every availability set an available proxy belongs to
local function avail_sets(P, h)
  local sets = { P .. 'a:all', P .. 'a:u:' .. h.upstream, P .. 'a:p:' .. h.proto }
  for f, v in pairs(h) do
    if string.sub(f, 1, 2) == 'l.' then
      sets[#sets + 1] = label_set(P, string.sub(f, 3), v)
    end
  end
  return sets
end

-- adds id to the sets and expiry zset of its state
local function index(P, id, h)
  if h.state == 'disabled' then
    redis.call('SADD', P .. 'd:u:' .. h.upstream, id)
    if h.exp then redis.call('ZADD', P .. 'x:d', h.exp, id) end
  else
    for _, s in ipairs(avail_sets(P, h)) do redis.call('SADD', s, id) end
    if h.exp then redis.call('ZADD', P .. 'x:a', h.exp, id) end
  end
end

local function unindex(P, id, h)
  if h.state == 'disabled' then
    redis.call('SREM', P .. 'd:u:' .. h.upstream, id)
    redis.call('ZREM', P .. 'x:d', id)
  else
    for _, s in ipairs(avail_sets(P, h)) do redis.call('SREM', s, id) end
    redis.call('ZREM', P .. 'x:a', id)
  end
end

-- the record is in P p:<id> already; makes it visible everywhere
local function attach(P, id, h)
  index(P, id, h)
  redis.call('ZADD', P .. 'ids', 0, id)
  redis.call('SET', P .. 'k:' .. key_of(h), id)
  redis.call('SADD', P .. 'ups', h.upstream)
end

local function forget_upstream_if_empty(P, upstream)
  if redis.call('SCARD', P .. 'a:u:' .. upstream) == 0 and redis.call('SCARD', P .. 'd:u:' .. upstream) == 0 then
    redis.call('SREM', P .. 'ups', upstream)
  end
end

-- removes a stored proxy and every trace of it (no tombstone)
local function detach(P, id, h)
  unindex(P, id, h)
  redis.call('ZREM', P .. 'ids', id)
  local k = P .. 'k:' .. key_of(h)
  if redis.call('GET', k) == id then redis.call('DEL', k) end
  redis.call('DEL', P .. 'p:' .. id)
  forget_upstream_if_empty(P, h.upstream)
end

-- drops up to `limit` proxies of expiry zset `zkey` expired at `now`; returns how many
local function purge_zset(P, zkey, now, limit)
  local ids = redis.call('ZRANGEBYSCORE', zkey, '-inf', now, 'LIMIT', 0, limit)
  for _, id in ipairs(ids) do
    local flat = redis.call('HGETALL', P .. 'p:' .. id)
    if #flat > 0 then
      detach(P, id, hmap(flat))
    else
      redis.call('ZREM', zkey, id)
    end
  end
  return #ids
end

-- filter terms from ARGV[first ...]: n, then n triples kind ('u'|'p'|'l'), a, b; returns set keys
local function term_sets(P, first)
  local n = tonumber(ARGV[first])
  local sets = {}
  for i = 0, n - 1 do
    local kind, a, b = ARGV[first + 1 + 3 * i], ARGV[first + 2 + 3 * i], ARGV[first + 3 + 3 * i]
    if kind == 'u' then
      sets[#sets + 1] = P .. 'a:u:' .. a
    elseif kind == 'p' then
      sets[#sets + 1] = P .. 'a:p:' .. a
    else
      sets[#sets + 1] = label_set(P, a, b)
    end
  end
  return sets
end
