-- Create a table's meta hash unless it exists. KEYS[1] meta hash; ARGV field, value pairs.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
