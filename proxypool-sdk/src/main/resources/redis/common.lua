--[[
common.lua: the key layout and the index bookkeeping shared by every pool script. It is not
loaded alone: RedisPoolStore prepends it to each pool script before SCRIPT LOAD, so all scripts
agree on one layout. Every pool script takes the same seventeen keys in KEYS (RedisKeys.pool(), in
this order), and those that touch the per-term sets (T e:<term>, below: publish.lua, purge.lua)
take them after the reservation keys, from KEYS[20] on; extract_fast.lua, which does without this
file, takes the few keys it needs in an order of its own (its header). No script computes a key
name: the pool lives in a fixed number of keys (and one set per set term) that share one hash
tag, T = "{<keyPrefix>0}:" (shard 0; a later partitioned pool adds shards "{<keyPrefix><n>}:"), so
a script touches one slot of Redis Cluster.

  [1]  T r   hash  id -> the stored proxy: tokens "<bytes>:<text>" of k, u, e, en, ix, rec
                   (ProxyCodec.storedValue): k = physical key proto/host/port/credRef,
                   u = upstream, e = expiresAt (ms, '' = never), en = '1' when e was rounded down,
                   ix = its index terms, rec = the record the Java side decodes (no secret, only
                   the credentialRef name). Immutable until the proxy is published again. Also
                   holds the records of retired ids (T g, T y) until collected: fetch() skips them.
  [2]  T c   hash  id -> last health check "<ms>" or "<ms>:<ns>" (absent = never checked)
  [3]  T d   set   ids of the disabled proxies
  [4]  T xa  zset  available ids by expiresAt (ms), +inf for one that never expires (held ones too,
                   reserved ones not); may also hold retired ids (T g) until collected: readers of
                   expired ids test T a (expired_available). So the proxies with at least t ms left
                   are the range [now + t, +inf]: on a pool indexed alike (index tag '+x': a proxy
                   published by a version before it has no +inf entry) extract.lua proves a
                   minRemainingTtl shortfall over that range when it is the smaller
  [5]  T xd  zset  disabled ids that expire, by expiresAt (ms)
  [6]  T i   zset  the index, all scores 0, ordered by member: "<term>|<id>" for every index term
                   of every available proxy not held (T o), a term being "<bytes>:<item>" with item
                   "u:<upstream>" | "p:<protocol>" | "l:<n>:<k>=<v>" (n = byte length of k) |
                   "c:<label items>": a composite term, one per combination of two or more of the
                   declared dimensions (store.index.dimensions) the proxy has, its label items
                   length-prefixed in key order, so a filter on such a combination is one range.
                   The length prefix makes a term's members exactly the range
                   ["<term>|", "<term>}"), read by lex from a random id (ZRANGEBYLEX) or by rank.
                   An extraction removes the extracted id's composite members at once (retire),
                   its single-term members wait in T g for collect(); reserved ids keep theirs:
                   readers test T a.
  [7]  T k   hash  physical key -> the id holding it (one stored id per physical proxy, E3); a
                   retired id keeps holding its key until collected (its tombstone is in T g)
  [8]  T t   zset  tombstones: physical key by end (epoch ms) of an extracted proxy, written when
                   the retired id is collected (until then the end is its T g value)
  [9]  T n   hash  "a:<upstream>" / "d:<upstream>" -> available / disabled count of the upstream;
                   and two fields that are no counters: 'z' -> the index tag under which every
                   stored proxy is indexed (absent: mixed, or not known yet), 'zp' -> the purge's
                   check of a mixed pool under way, "<tag>|<HSCAN cursor of T f>[|<id it waits on>]"
                   (index_published, index_check, indexed_alike below), 'lc' -> the latest health
                   check written (epoch ms, mark_checked.lua: a bound of every proxy's)
  [10] T s   zset  stored ids, all scores 0, for listing in id order (ZRANGEBYLEX); may also
                   hold ids of T g: readers skip them (fetch)
  [11] T a   set   ids of the available proxies that no health hold keeps out (T h, T o), exact:
                   extraction samples it unfiltered (SPOP), takes a candidate from T i or a set
                   only when SREM T a removes it
  [12] T g   hash  id -> tombstone end (epoch ms) of a retired (extracted) id, whose record, key
                   holder, check, listing entry, T xa entry and single-term T i members are still to be
                   removed (lazy cleanup: an extraction writes this one field instead of touching
                   eight keys); collect() drains it (purge.lua, publish.lua before the key or id
                   is stored again) and moves the tombstone to T t. A value that is not a number
                   is an entry of the previous version (the index terms of an id whose record is
                   already gone): collect() removes its members.
  [13] T h   zset  id -> end (epoch ms) of a health hold: the proxy is not HEALTHY on some worker and
                   is not extracted while it has an entry here (PoolStore.markUnhealthy, renewed by
                   its owner while it stays unhealthy, so a dead owner's hold lapses); state, counts
                   and listing are unchanged. An available proxy with an entry is out of T a and of
                   T i, in T o (hold_out), so no extraction reads it, not even to prove a shortfall.
                   Cleared by markHealthy, detach and collect; entries whose end passed are ended
                   (hold_end: back into T a and T i) by purge.lua and, bounded, by extract.lua before
                   it reads anything (so a lapsed hold keeps a proxy out until one of them runs).
  [14] T f   hash  id -> what extract_fast.lua needs of a proxy, ready to use (fast_value): a
                   MessagePack sequence (cmsgpack, one C call to unpack) of its expiresAt (ms, 0 =
                   never), its tombstone end when it expires (expiresAt, + 1 when en; '' = never:
                   now + retention), its counter field of T n ("a:<upstream>"), 'r', its record
                   (the text of the rec token of its T r value: the fast path answers it without
                   reading T r, one command less per extraction for ~130 bytes per proxy), then its set
                   terms (the T e:<term> sets it is a member of), then its publisher's index tag
                   ('#...', ProxyCodec.indexTag; absent when stored by a version before the tags).
                   Written with T r (publish.lua),
                   removed with it (detach, drop_taken, collect, which hand its set terms to T m):
                   the fast path parses no stored value in Lua (but the previous shape's, below). An id of T r without it
                   (stored by a version before T f) takes the general path; a value with 's'
                   instead of 'r' and the record (stored by a version before the record was
                   here) has its set terms from the 5th item and the fast path reads its record
                   of T r; a value with neither (stored before the sets: its 4th item on is
                   composite members) serves the unfiltered fast path and is in no set.
  [15] T m   hash  id -> set terms ("<bytes>:<term>" repeated) whose set may still hold the id
                   although it is no longer a member there (pending set cleanups): written when an
                   id's T f goes (detach, drop_taken, collect) or a publish changes its set terms;
                   drained by purge.lua (sets_gc), which removes the id from each set whose key it
                   was passed unless the id is a member there again.
  [16] T o   set   ids of the available proxies held out of extraction by a health hold (T h):
                   counted available (T n, T xa entry kept), in their sets still (a pop puts them
                   back, like reserved ones), but out of T a and without T i members, so a pool or a
                   filter's range whose proxies are all held is empty to extraction: it proves the
                   shortfall in O(1) instead of reading every held proxy on every call (a health
                   outage would otherwise hold Redis for the whole pool's length per extraction).
  [17] T y   set   ids extract_fast.lua's count=1 branch retired: one it takes from a set it takes and
                   retires in one command (SMOVE T a T y) instead of two (SREM T a, HSET T g), one
                   it pops from T a it retires by SADD T y (as cheap as the HSET). Retired
                   like an id of T g (is_retired), and collected like one (by the purge, first;
                   by publish.lua when it stores the id again); its tombstone end (retiring_end) is
                   its T g value when it has one (a proxy without expiry: written by the same call,
                   so the end is exact), else its expiry (its T f item's end).
  [20...] T e:<term>  sets: one per set term ("<bytes>:<item>", ProxyCodec.setTerms: the upstream
                   "u:<upstream>", the protocol "p:<protocol>", each label of store.index.dimensions
                   "l:<n>:<k>=<v>", each composite "c:<label items>" of two or more of them, and
                   each combination "c:<protocol item><label items>" of one or more of them with the
                   protocol, its item "p:<protocol>" length-prefixed first, and with
                   store.index.upstream the upstream's "c:<upstream item>[<protocol item>]<label
                   items>" with one or more of them, the protocol or both, "u:<upstream>" first: sets
                   only, T i has no such members)
                   holding the ids of every stored, not retired proxy with that term, available,
                   reserved or disabled, plus stale ids (lazy cleanup): an id extracted through
                   one set, or without a filter, stays in its other sets until a pop meets it (the
                   fast path drops a popped id that is retired, not stored, or no longer has the
                   term in T f; one it skips for lacking another term of the filter, read before
                   retirement is, goes back) or the purge collects it (T m). extract_fast.lua answers a filter
                   that is exactly one set term by SPOP of that set. Key names are passed by the
                   Java side (RedisKeys.set), never built: a script finds the set of a term by
                   looking its name up among KEYS[20...] (set_keys).
  An id is stored when T r has it and neither T g nor T y does; retired when T g or T y has it. A tombstone is
  active for key K at now when T t scores K above now, or when K's holder (T k) is retired with
  an end above now (tombstone_end).

The Redis Cluster store (RedisClusterPoolStore) partitions the pool: shard n has the same seventeen
keys and the sets under T = "{<keyPrefix><n>}:" (a proxy's shard is a hash of its physical key, so its record,
index members, key holder and tombstone share one tag), plus two keys for reservations of an
allOrNothing extraction across shards, passed only to the scripts that use them:
  [18] T v   zset  reservation tokens by deadline (epoch ms): released by release.lua once ended
  [19] T w   hash  reservation token -> its proxies, "<bytes>:<id>" repeated; a reserved proxy is
                   out of T a and T xa and not counted available, its record, key holder and index
                   members stay (readers test T a), until commit.lua extracts it or release.lua
                   returns it
Scripts that leave an available proxy (leave, retire) change T xa and the counter only when SREM
T a removed it, so a reserved proxy that is refreshed, disabled or removed meanwhile keeps the
counters exact.

Idempotency records use their own keys (idempotency_*.lua, KEYS there), tagged "{<keyPrefix>i}:".
Keys of the previous layout (computed under the bare prefix) are refused at start: RedisPoolStore.
Complexity of each helper: O(1) commands per proxy, each O(1) or O(log n) (ZADD / ZREM of the L
index members of a proxy are one command, O(L log n)). An extraction of one proxy by the general
script costs 5 commands after its selection: SREM / SPOP of T a, HGET T r, and retire() (HINCRBY
T n, ZREM of its composite T i members, HSET T g); the common case does not get here:
extract_fast.lua, a function of its own that uses none of these helpers, pops T a or a set, reads
T f (the record with it) and retires the proxy (SMOVE T a T y or SADD T y, HINCRBY T n) without
touching T i.
]]

local K_REC, K_CHK, K_DIS, K_XA, K_XD, K_IDX, K_KEY, K_TOMB, K_CNT, K_IDS, K_AV, K_GC =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12]
local K_HOLD, K_FAST, K_PEND, K_OUT, K_Y = KEYS[13], KEYS[14], KEYS[15], KEYS[16], KEYS[17]
local K_RV, K_RW = KEYS[18], KEYS[19] -- reservations: nil unless the script is passed them

-- the length-prefixed tokens of a string ("<bytes>:<text>" repeated), as a list
local function tokens(v)
  local out, pos = {}, 1
  while pos <= #v do
    local colon = string.find(v, ':', pos, true)
    local n = tonumber(string.sub(v, pos, colon - 1))
    out[#out + 1] = string.sub(v, colon + 1, colon + n)
    pos = colon + n + 1
  end
  return out
end

-- a stored value of T r as a table (k, u, e, en, ix, r); e and en nil when absent
local function parse(v)
  local t = tokens(v)
  return { k = t[1], u = t[2], e = t[3] ~= '' and t[3] or nil, en = t[4] ~= '' and t[4] or nil,
           ix = t[5], r = t[6], v = v }
end

-- whether id is retired: extracted, its tombstone end in T g, or (taken by extract_fast.lua) in T y
local function is_retired(id)
  return redis.call('HEXISTS', K_GC, id) == 1 or redis.call('SISMEMBER', K_Y, id) == 1
end

-- the stored proxy id, or nil (nil for a retired id, whose record waits in T r to be collected)
local function fetch(id)
  local v = redis.call('HGET', K_REC, id)
  if not v or is_retired(id) then return nil end
  return parse(v)
end

-- 'disabled' or 'available' for a stored id
local function state_of(id)
  return redis.call('SISMEMBER', K_DIS, id) == 1 and 'disabled' or 'available'
end

-- the index terms of an ix field ("<bytes>:<item>" repeated), each as it is written in T i
local function terms(ix)
  local out, pos = {}, 1
  while pos <= #ix do
    local colon = string.find(ix, ':', pos, true)
    local n = tonumber(string.sub(ix, pos, colon - 1))
    out[#out + 1] = string.sub(ix, pos, colon + n)
    pos = colon + n + 1
  end
  return out
end

-- the members of T i of an available proxy with index terms ix
local function members(id, ix)
  local out = {}
  for _, term in ipairs(terms(ix)) do out[#out + 1] = term .. '|' .. id end
  return out
end

-- the members of T i of the composite terms among ix ("<bytes>:c:..."): the ranges the declared
-- filter combinations read, which an extraction cleans at once
local function composite_members(id, ix)
  local out = {}
  for _, term in ipairs(terms(ix)) do
    local colon = string.find(term, ':', 1, true)
    if string.sub(term, colon + 1, colon + 2) == 'c:' then out[#out + 1] = term .. '|' .. id end
  end
  return out
end

-- the T f value of stored proxy h with set terms `sets` (a list), indexed under `tag` (the
-- publisher's index tag): see the layout above
local function fast_value(h, sets, tag)
  local ends = ''
  if h.e then ends = h.en and string.format('%d', tonumber(h.e) + 1) or h.e end
  local items = { h.e and tonumber(h.e) or 0, ends, 'a:' .. h.u, 'r', h.r }
  for _, term in ipairs(sets) do items[#items + 1] = term end
  items[#items + 1] = tag
  return cmsgpack.pack(unpack(items))
end

-- the set terms of a T f value (a list; empty for a value without them): its items after the
-- record ('r') or the 's', but the index tag ('#...', last: no term starts with '#')
local function set_terms_of(f)
  if not f then return {} end
  local t = { cmsgpack.unpack(f) }
  local first = t[4] == 'r' and 6 or t[4] == 's' and 5 or nil
  if not first then return {} end
  local out = {}
  for k = first, #t do
    if string.byte(t[k], 1) ~= 35 then out[#out + 1] = t[k] end -- 35: '#'
  end
  return out
end

-- Whether every stored proxy is indexed under `tag` (T n field 'z' holds it): then the composite
-- range of T i of a filter's declared labels holds every proxy with those labels, and a range
-- seen whole proves that no other proxy matches (extract.lua).
local function indexed_alike(tag)
  return redis.call('HGET', K_CNT, 'z') == tag
end

-- After a publish of proxies indexed under `tag` (was_empty: the pool stored no id before it):
-- the pool is indexed alike when it was empty or was indexed alike under `tag` already; a publish
-- under another tag makes it mixed ('z' dropped) and restarts a check under way for another tag
-- ('zp': an entry behind its cursor may now be of a third tag). The purge's check (index_check)
-- sets 'z' again once every T f entry carries one tag.
local function index_published(tag, was_empty)
  local z = redis.call('HGET', K_CNT, 'z')
  if z == tag then return end
  if was_empty then
    redis.call('HSET', K_CNT, 'z', tag)
    redis.call('HDEL', K_CNT, 'zp')
    return
  end
  if z then redis.call('HDEL', K_CNT, 'z') end
  local zp = redis.call('HGET', K_CNT, 'zp')
  if zp and string.sub(zp, 1, #tag + 1) ~= tag .. '|' then redis.call('HDEL', K_CNT, 'zp') end
end

-- One step of the check that a mixed pool (no 'z') is indexed alike under `tag` again: HSCAN of
-- `count` entries of T f from the cursor in 'zp' ("<tag>|<cursor>", or "<tag>|<cursor>|<id>" while
-- it waits on an entry of that page indexed otherwise: published under other dimensions, or by a
-- version before the tags). While that entry keeps its tag, a step costs one HGET; once it is
-- published again under `tag` or gone, the check reads that page again and goes on, so a few
-- proxies that are never published again cost no rescans of the pool. The scan's end sets 'z'.
-- Entries published meanwhile carry `tag` (index_published restarts the check for any other), and
-- those behind the cursor cannot lose it otherwise. Returns true while the check goes on without
-- waiting (the caller may call again at once).
local function index_check(tag, count)
  if redis.call('HEXISTS', K_CNT, 'z') == 1 then return false end
  local zp = redis.call('HGET', K_CNT, 'zp')
  local cursor, waiting = '0', nil
  if zp and string.sub(zp, 1, #tag + 1) == tag .. '|' then
    cursor = string.sub(zp, #tag + 2)
    local bar = string.find(cursor, '|', 1, true)
    if bar then cursor, waiting = string.sub(cursor, 1, bar - 1), string.sub(cursor, bar + 1) end
  end
  if waiting then
    local f = redis.call('HGET', K_FAST, waiting)
    if f then
      local t = { cmsgpack.unpack(f) }
      if t[#t] ~= tag then return false end -- still indexed otherwise: wait
    end
  end
  local page = redis.call('HSCAN', K_FAST, cursor, 'COUNT', count)
  local flat = page[2]
  for i = 1, #flat, 2 do
    local t = { cmsgpack.unpack(flat[i + 1]) }
    if t[#t] ~= tag then
      redis.call('HSET', K_CNT, 'zp', tag .. '|' .. cursor .. '|' .. flat[i]) -- wait on it, then this page again
      return false
    end
  end
  if page[1] == '0' then
    redis.call('HSET', K_CNT, 'z', tag)
    redis.call('HDEL', K_CNT, 'zp')
    return false
  end
  redis.call('HSET', K_CNT, 'zp', tag .. '|' .. page[1])
  return true
end

-- set term -> its index in KEYS, for the sets passed from KEYS[20] on (RedisKeys.withSets)
local function set_keys()
  local out = {}
  if #KEYS >= 20 then
    local cut = #K_REC + 2 -- T .. 'r' is K_REC, a set is T .. 'e:' .. term
    for j = 20, #KEYS do out[string.sub(KEYS[j], cut)] = j end
  end
  return out
end

-- records that the sets of `terms` may still hold id although it left them (T m), for sets_gc
local function pend(id, terms)
  if #terms == 0 then return end
  local parts = { redis.call('HGET', K_PEND, id) or '' }
  for _, term in ipairs(terms) do parts[#parts + 1] = #term .. ':' .. term end
  redis.call('HSET', K_PEND, id, table.concat(parts))
end

-- removes id's T f entry, handing its set terms to T m (the sets are cleaned by sets_gc)
local function unfast(id)
  local f = redis.call('HGET', K_FAST, id)
  if f then
    pend(id, set_terms_of(f))
    redis.call('HDEL', K_FAST, id)
  end
end

-- removes up to `batch` pending set cleanups (T m) whose sets were passed (KEYS[20...]): the id
-- leaves each such set unless it is a member there again (stored, not retired, and the term in
-- its T f). Returns how many entries it looked at and the terms it lacked the keys of (their
-- entries stay, for a call passing them)
local function sets_gc(batch)
  local sk = set_keys()
  local entries = redis.call('HRANDFIELD', K_PEND, batch, 'WITHVALUES')
  local missing, seen = {}, {}
  for i = 1, #entries, 2 do
    local id = entries[i]
    local current = {}
    if not is_retired(id) then
      for _, term in ipairs(set_terms_of(redis.call('HGET', K_FAST, id))) do current[term] = true end
    end
    local left = {}
    for _, term in ipairs(tokens(entries[i + 1])) do
      if not current[term] then
        local j = sk[term]
        if j then
          redis.call('SREM', KEYS[j], id)
        else
          left[#left + 1] = #term .. ':' .. term
          if not seen[term] then seen[term] = true; missing[#missing + 1] = term end
        end
      end
    end
    if #left == 0 then
      redis.call('HDEL', K_PEND, id)
    else
      redis.call('HSET', K_PEND, id, table.concat(left))
    end
  end
  return #entries / 2, missing
end

-- puts id's T i members (index terms ix) in
local function index_in(id, ix)
  local zadd = {}
  for _, m in ipairs(members(id, ix)) do
    zadd[#zadd + 1] = 0
    zadd[#zadd + 1] = m
  end
  if #zadd > 0 then redis.call('ZADD', K_IDX, unpack(zadd)) end
end

-- takes id's T i members (index terms ix) out
local function index_out(id, ix)
  local m = members(id, ix)
  if #m > 0 then redis.call('ZREM', K_IDX, unpack(m)) end
end

-- makes available proxy h, counted by the caller, extractable (T a, T i), or held out (T o, no T i
-- members) when a health hold has it (T h)
local function offer(id, h)
  if redis.call('ZSCORE', K_HOLD, id) then
    redis.call('SADD', K_OUT, id)
    index_out(id, h.ix)
  else
    redis.call('SADD', K_AV, id)
    index_in(id, h.ix)
  end
end

-- a health hold of stored id begins or is renewed (T h written by the caller): an extractable
-- proxy leaves T a and T i for T o; a reserved or disabled one stays as it is
local function hold_out(id)
  if redis.call('SREM', K_AV, id) == 1 then
    redis.call('SADD', K_OUT, id)
    local v = redis.call('HGET', K_REC, id)
    if v then index_out(id, parse(v).ix) end
  end
end

-- the health hold of id ended (its T h entry removed by the caller): a proxy held out goes back
-- into T a and T i
local function hold_end(id)
  if redis.call('SREM', K_OUT, id) == 1 then
    local v = redis.call('HGET', K_REC, id)
    if v then
      redis.call('SADD', K_AV, id)
      index_in(id, parse(v).ix)
    end
  end
end

-- ends up to `limit` holds whose end passed at now (their owner stopped renewing them: lapsed);
-- returns how many
local function holds_lapsed(now, limit)
  local ids = redis.call('ZRANGEBYSCORE', K_HOLD, '-inf', now, 'LIMIT', 0, limit)
  if #ids > 0 then redis.call('ZREM', K_HOLD, unpack(ids)) end
  for _, id in ipairs(ids) do hold_end(id) end
  return #ids
end

-- makes a stored proxy count, and be found, in state st ('available' | 'disabled')
local function enter(id, h, st)
  if st == 'disabled' then
    redis.call('SADD', K_DIS, id)
    if h.e then redis.call('ZADD', K_XD, h.e, id) end
    redis.call('HINCRBY', K_CNT, 'd:' .. h.u, 1)
  else
    offer(id, h)
    redis.call('ZADD', K_XA, h.e or '+inf', id)
    redis.call('HINCRBY', K_CNT, 'a:' .. h.u, 1)
  end
end

-- the reverse of enter; true unless h was reserved (available, yet out of T a and T o: uncounted)
local function leave(id, h, st)
  if st == 'disabled' then
    redis.call('SREM', K_DIS, id)
    if h.e then redis.call('ZREM', K_XD, id) end
    redis.call('HINCRBY', K_CNT, 'd:' .. h.u, -1)
  else
    local was = redis.call('SREM', K_AV, id) -- 0 for a reserved proxy: already uncounted
    if was == 0 then was = redis.call('SREM', K_OUT, id) end -- held out: counted
    index_out(id, h.ix)
    if was == 1 then
      redis.call('ZREM', K_XA, id)
      redis.call('HINCRBY', K_CNT, 'a:' .. h.u, -1)
    end
    return was == 1
  end
  return true
end

-- removes a stored proxy in state st and every trace of it (no tombstone). T k names the stored
-- proxy of each key (publish keeps it so), hence a plain HDEL.
local function detach(id, h, st)
  leave(id, h, st)
  redis.call('ZREM', K_IDS, id)
  redis.call('HDEL', K_KEY, h.k)
  redis.call('HDEL', K_REC, id)
  unfast(id)
  redis.call('HDEL', K_CHK, id)
  redis.call('ZREM', K_HOLD, id)
end

-- the end of the tombstone of proxy h extracted at now: its expiry, or now + retention without one
local function tomb_end(h, now, retention)
  if h.e then
    local ends = tonumber(h.e)
    if h.en then ends = ends + 1 end -- a sub-millisecond expiry rounds the tombstone up: the safe side
    return ends
  end
  return now + retention
end

-- removes an available (or reserved) proxy as an extraction does: its availability, counter and
-- composite index members now, everything else later (T g: one HSET holding the tombstone end). taken: the
-- caller already removed it from T a (SPOP, or SREM that returned 1). 3 or 4 commands, O(L log n).
local function retire(id, h, now, retention, taken)
  if taken or redis.call('SREM', K_AV, id) == 1 then -- 0: reserved, already out of T xa and uncounted
    redis.call('HINCRBY', K_CNT, 'a:' .. h.u, -1)
  end
  -- its composite index members go at once (one ZREM): left behind, they would fill the windows
  -- of later extractions with dead entries as a pool drains. The single-term members wait for
  -- collect(): a sorted-set delete is a few cache misses each, and the single-term ranges are the
  -- fallback, whose wide windows filter dead ids in bulk (SMISMEMBER)
  local m = composite_members(id, h.ix)
  if #m > 0 then redis.call('ZREM', K_IDX, unpack(m)) end
  redis.call('HSET', K_GC, id, string.format('%d', tomb_end(h, now, retention)))
end

-- retire() of many proxies the caller took out of T a, batched: one HINCRBY per upstream, and the
-- composite index members and T g entries in commands of up to 1,000 arguments (a count=100 extraction runs
-- about 4 commands here instead of 300)
local function retire_taken(ids, hs, now, retention)
  local per_upstream, m, g = {}, {}, {}
  local function flush(force)
    if #m > 0 and (force or #m >= 1000) then redis.call('ZREM', K_IDX, unpack(m)); m = {} end
    if #g > 0 and (force or #g >= 1000) then redis.call('HSET', K_GC, unpack(g)); g = {} end
  end
  for i, id in ipairs(ids) do
    local h = hs[i]
    per_upstream[h.u] = (per_upstream[h.u] or 0) + 1
    for _, member in ipairs(composite_members(id, h.ix)) do m[#m + 1] = member end
    g[#g + 1] = id
    g[#g + 1] = string.format('%d', tomb_end(h, now, retention))
    flush(false)
  end
  flush(true)
  for u, n in pairs(per_upstream) do redis.call('HINCRBY', K_CNT, 'a:' .. u, -n) end
end

-- removes every trace of an available proxy the caller took out of T a (SPOP / SREM returned 1)
-- and does not extract (it expired): what detach does after SREM
local function drop_taken(id, h)
  local m = members(id, h.ix)
  if #m > 0 then redis.call('ZREM', K_IDX, unpack(m)) end
  redis.call('ZREM', K_XA, id)
  redis.call('HINCRBY', K_CNT, 'a:' .. h.u, -1)
  redis.call('ZREM', K_IDS, id)
  redis.call('HDEL', K_KEY, h.k)
  redis.call('HDEL', K_REC, id)
  unfast(id)
  redis.call('HDEL', K_CHK, id)
  redis.call('ZREM', K_HOLD, id)
end

-- returns the proxies of reservation `token` (T w) that are still stored and not disabled to
-- AVAILABLE and forgets the reservation; how many returned
local function release(token)
  local v = redis.call('HGET', K_RW, token)
  redis.call('ZREM', K_RV, token)
  if not v then return 0 end
  redis.call('HDEL', K_RW, token)
  local n = 0
  for _, id in ipairs(tokens(v)) do
    local h = fetch(id)
    if h and redis.call('SISMEMBER', K_DIS, id) == 0 and redis.call('SISMEMBER', K_AV, id) == 0
        and redis.call('SISMEMBER', K_OUT, id) == 0 then
      offer(id, h) -- its T i members stayed while reserved
      redis.call('ZADD', K_XA, h.e or '+inf', id)
      redis.call('HINCRBY', K_CNT, 'a:' .. h.u, 1)
      n = n + 1
    end
  end
  return n
end

-- finishes the cleanup of a retired id (its T g value v, the tombstone end): record, key holder,
-- check, listing entry, T xa entry and index members; the tombstone moves to T t while it lasts
local function collect(id, v, now)
  local ends = tonumber(v)
  local rv = ends and redis.call('HGET', K_REC, id)
  if rv then
    local h = parse(rv)
    local m = members(id, h.ix)
    if #m > 0 then redis.call('ZREM', K_IDX, unpack(m)) end
    redis.call('ZREM', K_XA, id)
    if redis.call('HGET', K_KEY, h.k) == id then redis.call('HDEL', K_KEY, h.k) end
    redis.call('HDEL', K_REC, id)
    unfast(id)
    redis.call('HDEL', K_CHK, id)
    redis.call('ZREM', K_HOLD, id)
    if ends > now then redis.call('ZADD', K_TOMB, v, h.k) end
  elseif not ends then -- previous version: v is the ix of an id whose record is already gone
    local m = members(id, v)
    if #m > 0 then redis.call('ZREM', K_IDX, unpack(m)) end
  end
  redis.call('ZREM', K_IDS, id)
  redis.call('HDEL', K_GC, id)
  redis.call('SREM', K_Y, id) -- taken from a set by the fast path (its end also in T g without expiry)
end

-- the tombstone end (ms) of id, retired by extract_fast.lua (T y) and not collected yet: its T g
-- value (one without expiry), else its expiry (the end its T f item holds); now + retention for one
-- with neither, which the fast path never leaves (the safe side: a tombstone, not a second hand-out)
local function retiring_end(id, now, retention)
  local g = tonumber(redis.call('HGET', K_GC, id))
  if g then return g end
  local f = redis.call('HGET', K_FAST, id)
  if f then
    local e, ends = cmsgpack.unpack(f)
    if e > 0 then return tonumber(ends) end
  end
  return now + retention
end

-- collects up to `batch` ids of T y (retired by extract_fast.lua) with their tombstone ends
-- (retiring_end); returns how many
local function collect_retiring(now, retention, batch)
  local ids = redis.call('SPOP', K_Y, batch)
  for _, id in ipairs(ids) do collect(id, string.format('%d', retiring_end(id, now, retention)), now) end
  return #ids
end

-- the end (ms) of the tombstone of physical key k active at now, or nil; collects the key's
-- retired holder once its tombstone ended (retention: a holder of T y without expiry ends at
-- now + retention, so it is active)
local function tombstone_end(k, now, retention)
  local holder = redis.call('HGET', K_KEY, k)
  if holder then
    local g = redis.call('HGET', K_GC, holder)
    if g then
      if tonumber(g) and tonumber(g) > now then return tonumber(g) end
      collect(holder, g, now)
    elseif redis.call('SISMEMBER', K_Y, holder) == 1 then
      local ends = retiring_end(holder, now, retention)
      if ends > now then return ends end
      collect(holder, string.format('%d', ends), now)
    end
  end
  local tomb = redis.call('ZSCORE', K_TOMB, k)
  if tomb and tonumber(tomb) > now then return tonumber(tomb) end
  return nil
end

-- how many ids of T a expired at now (T xa may also hold retired ids), in pages of 1000: O(e log n)
local function expired_available(now)
  local n, off = 0, 0
  while true do
    local ids = redis.call('ZRANGEBYSCORE', K_XA, '-inf', now, 'LIMIT', off, 1000)
    if #ids == 0 then return n end
    for _, yes in ipairs(redis.call('SMISMEMBER', K_AV, unpack(ids))) do n = n + yes end
    if #ids < 1000 then return n end
    off = off + 1000
  end
end

-- drops up to `limit` proxies expired at `now` of one state (the ids of T xa or T xd); returns
-- how many ids it looked at
local function purge_expired(st, now, limit)
  local ids
  if st == 'disabled' then
    ids = redis.call('ZRANGEBYSCORE', K_XD, '-inf', now, 'LIMIT', 0, limit)
  else
    ids = redis.call('ZRANGEBYSCORE', K_XA, '-inf', now, 'LIMIT', 0, limit)
  end
  for _, id in ipairs(ids) do
    local h = fetch(id)
    if h then
      detach(id, h, st)
    elseif st == 'disabled' then
      redis.call('ZREM', K_XD, id)
    else
      redis.call('ZREM', K_XA, id)
    end
  end
  return #ids
end

-- filter terms from ARGV[first ...]: n, then n triples kind ('u'|'p'|'l'), a, b; returns the
-- index terms as written in T i ("<bytes>:<item>")
local function term_args(first)
  local n = tonumber(ARGV[first])
  local out = {}
  for i = 0, n - 1 do
    local kind, a, b = ARGV[first + 1 + 3 * i], ARGV[first + 2 + 3 * i], ARGV[first + 3 + 3 * i]
    local item
    if kind == 'l' then
      item = 'l:' .. #a .. ':' .. a .. '=' .. b
    else
      item = kind .. ':' .. a
    end
    out[#out + 1] = #item .. ':' .. item
  end
  return out
end
