-- Reserve a place for one unstarted table in the store's budget (or refuse).
-- KEYS[1] rh:{pending}, KEYS[2] this address's set, KEYS[3] rh:{pending}:owners.
-- ARGV: table, owner, now ms, expiry ms, most per address (0: no cap), most in all (0: none).
-- Returns 'ok' | 'client' | 'all'. Entries past their expiry (tables never started) go first.
local now = ARGV[3]
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 200)
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[3], unpack(gone))
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local per, all = tonumber(ARGV[5]), tonumber(ARGV[6])
if per > 0 and redis.call('ZCARD', KEYS[2]) >= per then
  return 'client'
end
if all > 0 and redis.call('ZCARD', KEYS[1]) >= all then
  return 'all'
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 'ok'
