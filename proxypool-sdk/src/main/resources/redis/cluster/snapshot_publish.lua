--[[
snapshot_publish.lua: appends one snapshot version atomically (SnapshotPublisher). Readers see the
version's delta, its full frame (when rewritten) and the event together or not at all.
KEYS: [1] <prefix>snapshot:full   hash (e = epoch, v = version, d = full frame)
      [2] <prefix>snapshot:deltas stream (entry id <version>-0, field d = delta or reset frame)
      [3] <prefix>snapshot:resync string: a worker's request for a full rewrite
      [4] <prefix>control:fence  counter: the last fencing token issued (control_lease.lua)
ARGV: [1] epoch (decimal text), [2] version, [3] delta frame, [4] full frame, or "" to keep the stored one,
      [5] deltas kept (exact MAXLEN), [6] events channel, [7] event message "<epoch>:<version>",
      [8] the publisher's fencing token, or "" for a publisher without a lease (one control plane)
Returns: 1; or the error "FENCED <token> <last issued>" when the token is older than the last one
         issued (another control plane took the lease since: this one must stop publishing); or
         "STALE <stored epoch or -> <stored head version>" when the version does not exceed the
         stored head (max of the full's version and the stream's last id) or the stored epoch is
         another one (another lineage wrote since). Nothing is written on an error. The token is
         kept in the head (field f) for operators.
Complexity: O(1) commands plus copying the frames; the exact trim evicts O(1) entries per call.
]]
if ARGV[8] ~= '' then
  local issued = tonumber(redis.call('GET', KEYS[4]) or '0')
  if tonumber(ARGV[8]) < issued then
    return redis.error_reply('FENCED ' .. ARGV[8] .. ' ' .. string.format('%d', issued))
  end
end
local stored = redis.call('HMGET', KEYS[1], 'e', 'v')
local head = tonumber(stored[2]) or 0
local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
if top[1] then
  local last = tonumber(string.match(top[1][1], '^(%d+)-'))
  if last > head then
    head = last
  end
end
local version = tonumber(ARGV[2])
if (stored[1] and stored[1] ~= ARGV[1]) or version <= head then
  return redis.error_reply('STALE ' .. (stored[1] or '-') .. ' ' .. string.format('%d', head))
end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'e', ARGV[1], 'v', ARGV[2], 'd', ARGV[4])
  redis.call('DEL', KEYS[3])
end
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'f', ARGV[8])
end
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[5], ARGV[2] .. '-0', 'd', ARGV[3])
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
