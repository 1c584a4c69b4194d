--[[
snapshot_head.lua: the stored head of snapshot distribution, read consistently (SnapshotPublisher.open
and after a failed publish).
KEYS: [1] <prefix>snapshot:full hash, [2] <prefix>snapshot:deltas stream, [3] <prefix>snapshot:resync
ARGV: none
Returns: {epoch or "", full version or 0, stream's last version or 0, 1 when a resync is requested else 0}
Complexity: O(1).
]]
local stored = redis.call('HMGET', KEYS[1], 'e', 'v')
local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local last = 0
if top[1] then
  last = tonumber(string.match(top[1][1], '^(%d+)-'))
end
return {stored[1] or '', tonumber(stored[2]) or 0, last, redis.call('EXISTS', KEYS[3])}
