--[[
list.lua: one page of stored proxies in ascending id order (PoolStore.list, admin inspection).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] id to start after ('' = from the first), [3] page limit, [4] scan cap
      (most ids examined per page), [5] state ('' | 'available' | 'disabled'), [6] n filter
      terms, then n triples kind ('u' | 'p' | 'l'), a, b
Returns: {next, {r, s, c, cn}...}: next is the id the following page starts after ('' = listing
         done); per proxy its record, state and last check (ms, ns; '' when absent)
Complexity: O(log n + c) for c <= scan cap ids examined (ZRANGEBYLEX + HMGET each); a page may
hold fewer than the limit while more follow when the cap stops the scan.
]]
local P, after, limit, cap, state = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local want_up = nil
local want_items = {}
for _, item in ipairs(term_items(6)) do
  if string.sub(item, 1, 2) == 'u:' then
    want_up = string.sub(item, 3)
  else
    want_items[#want_items + 1] = item
  end
end

local function matches(v)
  if state ~= '' and v[4] ~= state then return false end
  if want_up and v[2] ~= want_up then return false end
  if #want_items > 0 then
    local have = {}
    for _, item in ipairs(items(v[3], '')) do have[item] = true end
    for _, item in ipairs(want_items) do
      if not have[item] then return false end
    end
  end
  return true
end

local out = { '' }
local last_returned = nil
local from = after == '' and '-' or '(' .. after
local scanned = 0
while true do
  local ids = redis.call('ZRANGEBYLEX', P .. 'ids', from, '+', 'LIMIT', 0, 256)
  if #ids == 0 then return out end
  for _, id in ipairs(ids) do
    local v = redis.call('HMGET', P .. 'p:' .. id, 'r', 'u', 'ix', 's', 'c', 'cn')
    if v[1] and matches(v) then
      if #out - 1 == limit then
        out[1] = last_returned -- a further match exists: the next page starts after this one's last
        return out
      end
      out[#out + 1] = { v[1], v[4], v[5] or '', v[6] or '' }
      last_returned = id
    end
    scanned = scanned + 1
    if scanned >= cap then
      out[1] = id -- stopped early: resume after the last id examined
      return out
    end
  end
  from = '(' .. ids[#ids]
end
