--[[
list.lua: one page of stored proxies in ascending id order (PoolStore.list, admin inspection).
KEYS: none (keys computed under the prefix; see common.lua)
ARGV: [1] prefix P, [2] id to start after ('' = from the first), [3] page limit, [4] scan cap
      (most ids examined per page), [5] state ('' | 'available' | 'disabled'), [6] n filter
      terms, then n triples kind ('u' | 'p' | 'l'), a, b
Returns: {next, record...}: next is the id the following page starts after ('' = listing done);
         each record a flat field/value array of P p:<id>
Complexity: O(log n + c) for c <= scan cap ids examined (ZRANGEBYLEX + HGETALL each); a page
may hold fewer than the limit while more follow when the cap stops the scan.
]]
local P, after, limit, cap, state = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local n = tonumber(ARGV[6])
local want_up, want_proto, want_labels = nil, nil, {}
for i = 0, n - 1 do
  local kind, a, b = ARGV[7 + 3 * i], ARGV[8 + 3 * i], ARGV[9 + 3 * i]
  if kind == 'u' then want_up = a elseif kind == 'p' then want_proto = a else want_labels['l.' .. a] = b end
end
local function matches(h)
  if state ~= '' and h.state ~= state then return false end
  if want_up and h.upstream ~= want_up then return false end
  if want_proto and h.proto ~= want_proto then return false end
  for f, v in pairs(want_labels) do
    if h[f] ~= v then return false end
  end
  return true
end

local out = { '' }
local from = after == '' and '-' or '(' .. after
local scanned = 0
while true do
  local ids = redis.call('ZRANGEBYLEX', P .. 'ids', from, '+', 'LIMIT', 0, 256)
  if #ids == 0 then return out end
  for _, id in ipairs(ids) do
    local flat = redis.call('HGETALL', P .. 'p:' .. id)
    if #flat > 0 and matches(hmap(flat)) then
      if #out - 1 == limit then
        out[1] = hmap(out[#out]).id -- a further match exists: next page after the last returned
        return out
      end
      out[#out + 1] = flat
    end
    scanned = scanned + 1
    if scanned >= cap then
      out[1] = id -- stopped early: resume after the last id examined
      return out
    end
  end
  from = '(' .. ids[#ids]
end
