--[[
control_lease.lua: the control-plane lease with a fencing token (ControlLeadership). The lease key holds
"<token> <holder>" with a TTL measured by Redis; the fence key counts the tokens ever issued, so a
new holder always gets a larger token than every earlier one.
KEYS: [1] <prefix>control:lease string, [2] <prefix>control:fence counter
ARGV: [1] acquire | renew | release, [2] holder id (no blanks), [3] TTL in milliseconds
Returns: acquire: the token held (a new one when the lease was free, the current one when this
         holder already holds it), 0 when another holder holds it; renew: the token when this holder
         held it (TTL extended), else 0; release: 1 when this holder held it (deleted), else 0
Complexity: O(1).
]]
local current = redis.call('GET', KEYS[1])
if current then
  local space = string.find(current, ' ', 1, true)
  local token = tonumber(string.sub(current, 1, space - 1))
  if string.sub(current, space + 1) ~= ARGV[2] then
    return 0
  end
  if ARGV[1] == 'release' then
    redis.call('DEL', KEYS[1])
    return 1
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return token
end
if ARGV[1] ~= 'acquire' then
  return 0
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], string.format('%d', token) .. ' ' .. ARGV[2], 'PX', ARGV[3])
return token
