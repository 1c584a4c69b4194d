--[[
common.lua: the key layout and the index bookkeeping shared by every pool script. It is not
loaded alone: RedisPoolStore prepends it to each script before SCRIPT LOAD, so all scripts agree
on one layout. Every key lives under the caller's prefix P (ARGV[1] of each pool script):

  P p:<id>            hash   r  = the whole record, encoded by the Java side (ProxyCodec), returned
                                  as is: no secret, only the credentialRef name
                             k  = its physical key, u = upstream, e = expiresAt (ms, absent when
                                  it never expires), en = '1' when e was rounded down
                             ix = its availability sets below P a:, each "<bytes>:<suffix>"
                                  ("u:<upstream>", "p:<protocol>", "l:<n>:<k>=<v>")
                             s  = state 'available' | 'disabled', c/cn = last check (ms, ns)
  P k:<key>           string id holding the physical proxy <key> = proto/host/port/credRef
  P t:<key>           string tombstone end (epoch ms) of an extracted proxy; PX = end - now
  P a:all             set    ids of all available proxies
  P a:u:<upstream>    set    available ids per upstream
  P a:p:<protocol>    set    available ids per protocol
  P a:l:<n>:<k>=<v>   set    available ids per label k=v (n = byte length of k: unambiguous)
  P d:u:<upstream>    set    disabled ids per upstream
  P ups               set    upstream names that have (or recently had) stored proxies
  P x:a / P x:d       zset   expiring available / disabled ids by expiresAt (ms)
  P ids               zset   every stored id, all scores 0, for ZRANGEBYLEX paging
  P i:f / i:d / i:r   hash   idempotency records (field = the client's length-prefixed key):
                             fingerprint, deadline (ms), response; idempotency_*.lua, which take
                             these and the two below in KEYS and do not use this prelude
  P iz / P i:x        zset   idempotency records by start sequence (size cap) / by deadline (purge)
  P iseq              string idempotency start sequence counter

Redis Cluster: scripts compute most key names from data (the chosen proxy's labels), so on a
cluster every key of one prefix must share a slot (a hash tag such as "{pp}:" as the prefix).
On a single Redis, which is the supported deployment, no hash tag is used.
Complexity of each helper: O(L) commands for a proxy with L labels, each O(1) or O(log n).
]]

-- the fields of a stored proxy the scripts work with; nil when id is not stored
local function fetch(P, id)
  local v = redis.call('HMGET', P .. 'p:' .. id, 'r', 'k', 'u', 'e', 'en', 'ix', 's')
  if not v[1] then return nil end
  return { r = v[1], k = v[2], u = v[3], e = v[4] or nil, en = v[5] or nil, ix = v[6], s = v[7] }
end

-- the length-prefixed items of an ix field ("<bytes>:<item>" repeated), each as pre .. item
local function items(ix, pre)
  local out, pos = {}, 1
  while pos <= #ix do
    local colon = string.find(ix, ':', pos, true)
    local n = tonumber(string.sub(ix, pos, colon - 1))
    out[#out + 1] = pre .. string.sub(ix, colon + 1, colon + n)
    pos = colon + n + 1
  end
  return out
end

-- every availability set an available proxy belongs to
local function avail_sets(P, h)
  local sets = items(h.ix, P .. 'a:')
  sets[#sets + 1] = P .. 'a:all'
  return sets
end

-- adds id to the sets and expiry zset of its state
local function index(P, id, h)
  if h.s == 'disabled' then
    redis.call('SADD', P .. 'd:u:' .. h.u, id)
    if h.e then redis.call('ZADD', P .. 'x:d', h.e, id) end
  else
    for _, s in ipairs(avail_sets(P, h)) do redis.call('SADD', s, id) end
    if h.e then redis.call('ZADD', P .. 'x:a', h.e, id) end
  end
end

local function unindex(P, id, h)
  if h.s == 'disabled' then
    redis.call('SREM', P .. 'd:u:' .. h.u, id)
    if h.e then redis.call('ZREM', P .. 'x:d', id) end
  else
    for _, s in ipairs(avail_sets(P, h)) do redis.call('SREM', s, id) end
    if h.e then redis.call('ZREM', P .. 'x:a', id) end
  end
end

-- the record is in P p:<id> already; makes it visible everywhere (but P ups: the caller's job)
local function attach(P, id, h)
  index(P, id, h)
  redis.call('ZADD', P .. 'ids', 0, id)
  redis.call('SET', P .. 'k:' .. h.k, id)
end

-- removes a stored proxy and every trace of it (no tombstone). P k:<key> always names the stored
-- proxy of that key (publish keeps it so), hence a plain DEL. An upstream left without proxies
-- stays in P ups until counts.lua drops it: two SCARDs less per extracted proxy.
local function detach(P, id, h)
  unindex(P, id, h)
  redis.call('ZREM', P .. 'ids', id)
  redis.call('DEL', P .. 'k:' .. h.k, P .. 'p:' .. id)
end

-- drops up to `limit` proxies of expiry zset `zkey` expired at `now`; returns how many
local function purge_zset(P, zkey, now, limit)
  local ids = redis.call('ZRANGEBYSCORE', zkey, '-inf', now, 'LIMIT', 0, limit)
  for _, id in ipairs(ids) do
    local h = fetch(P, id)
    if h then
      detach(P, id, h)
    else
      redis.call('ZREM', zkey, id)
    end
  end
  return #ids
end

-- filter terms from ARGV[first ...]: n, then n triples kind ('u'|'p'|'l'), a, b; returns the
-- availability set suffixes below P a: (the same items as an ix field)
local function term_items(first)
  local n = tonumber(ARGV[first])
  local out = {}
  for i = 0, n - 1 do
    local kind, a, b = ARGV[first + 1 + 3 * i], ARGV[first + 2 + 3 * i], ARGV[first + 3 + 3 * i]
    if kind == 'l' then
      out[#out + 1] = 'l:' .. #a .. ':' .. a .. '=' .. b
    else
      out[#out + 1] = kind .. ':' .. a
    end
  end
  return out
end
