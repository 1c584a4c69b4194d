--[[
list.lua: one page of stored proxies in ascending id order (PoolStore.list, admin inspection).
KEYS: the pool keys of common.lua, [1..17]
ARGV: [1] id to start after ('' = from the first), [2] page limit, [3] scan cap (most ids examined
      per page), [4] state ('' | 'available' | 'disabled'), [5] n filter terms, then n triples
      kind ('u' | 'p' | 'l'), a, b
Returns: {next, {r, s, c, cn}...}: next is the id the following page starts after ('' = listing
         done); per proxy its record, state and last check (ms, ns; '' when absent)
Complexity: O(log n + c) for c <= scan cap ids examined (ZRANGEBYLEX + HGET each); a page may
hold fewer than the limit while more follow when the cap stops the scan.
]]
local after, limit, cap, state = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local wanted = term_args(5)

local function matches(h, st)
  if state ~= '' and st ~= state then return false end
  if #wanted > 0 then
    local have = {}
    for _, term in ipairs(terms(h.ix)) do have[term] = true end
    for _, term in ipairs(wanted) do
      if not have[term] then return false end
    end
  end
  return true
end

local out = { '' }
local last_returned = nil
local from = after == '' and '-' or '(' .. after
local scanned = 0
while true do
  local ids = redis.call('ZRANGEBYLEX', K_IDS, from, '+', 'LIMIT', 0, 256)
  if #ids == 0 then return out end
  for _, id in ipairs(ids) do
    local h = fetch(id)
    if h then
      local st = state_of(id)
      if matches(h, st) then
        if #out - 1 == limit then
          out[1] = last_returned -- a further match exists: the next page starts after this one's last
          return out
        end
        local c, cn = redis.call('HGET', K_CHK, id) or '', ''
        local colon = string.find(c, ':', 1, true)
        if colon then c, cn = string.sub(c, 1, colon - 1), string.sub(c, colon + 1) end
        out[#out + 1] = { h.r, st, c, cn }
        last_returned = id
      end
    end
    scanned = scanned + 1
    if scanned >= cap then
      out[1] = id -- stopped early: resume after the last id examined
      return out
    end
  end
  from = '(' .. ids[#ids]
end
