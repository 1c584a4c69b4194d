--[[
worker_heartbeat.lua: marks one worker alive for a TTL measured by Redis (WorkerRegistry).
KEYS: [1] <prefix>workers set (index of ids), [2] <prefix>workers:<id>
ARGV: [1] worker id, [2] TTL in milliseconds, [3] value (a short description, no secrets)
Returns: 1
Complexity: O(1).
]]
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
redis.call('SADD', KEYS[1], ARGV[1])
return 1
