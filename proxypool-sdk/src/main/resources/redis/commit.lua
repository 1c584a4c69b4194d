--[[
commit.lua: extracts the proxies of one reservation (reserve mode of extract.lua), the commit of an
allOrNothing extraction across shards (RedisClusterPoolStore): each reserved proxy still stored and
not disabled goes AVAILABLE -> EXTRACTED (removal + tombstone) as extract.lua does.
KEYS: the pool keys of common.lua, [1..19]
ARGV: [1] now (epoch ms), [2] tombstone retention for proxies without expiry (ms), [3] token
Returns: {r...} the extracted records (fewer than reserved when some were removed or disabled
         meanwhile, none when the reservation ended and was released)
Complexity: O(k) commands for k reserved proxies, each O(1) or O(log n).
]]
local now, retention, token = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local v = redis.call('HGET', K_RW, token)
if not v then return {} end
redis.call('HDEL', K_RW, token)
redis.call('ZREM', K_RV, token)
local out = {}
for _, id in ipairs(tokens(v)) do
  local h = fetch(id)
  if h and redis.call('SISMEMBER', K_DIS, id) == 0 then
    retire(id, h, now, retention, false)
    out[#out + 1] = h.r
  end
end
return out
