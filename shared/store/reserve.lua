-- Reserve a place for one table in a budget of the store (or refuse): shared/store/budget.py.
-- KEYS[1] rh:{<budget>}, KEYS[2] this address's set, KEYS[3] rh:{<budget>}:owners.
-- ARGV: table, owner, now ms, expiry ms, most per address (0: no cap), most in all (0: none).
-- Returns 'ok' | 'client' | 'all'. Entries past their expiry go first; a table that holds a
-- place already keeps it, with the new expiry.
local now = ARGV[3]
-- The address's set outlives its latest place (never shortened: places differ in expiry).
local function outlive(key)
  local left = redis.call('PTTL', key)
  if left < 0 or left < tonumber(ARGV[4]) - tonumber(now) then
    redis.call('PEXPIREAT', key, ARGV[4])
  end
end
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 200)
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[3], unpack(gone))
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  if redis.call('ZADD', KEYS[2], 'XX', 'CH', ARGV[4], ARGV[1]) == 1 then
    outlive(KEYS[2])
  end
  return 'ok'
end
local per, all = tonumber(ARGV[5]), tonumber(ARGV[6])
if per > 0 and redis.call('ZCARD', KEYS[2]) >= per then
  return 'client'
end
if all > 0 and redis.call('ZCARD', KEYS[1]) >= all then
  return 'all'
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
outlive(KEYS[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 'ok'
