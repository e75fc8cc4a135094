-- Create a table's meta hash unless it exists. KEYS[1] meta hash; ARGV[1] time to live ms
-- (0: none; an unstarted table expires unless an action is logged), then field, value pairs.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local ttl = tonumber(ARGV[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return 1
