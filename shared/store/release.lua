-- A table gives its place in a budget back (shared/store/budget.py): it started, finished,
-- or its creation failed. KEYS[1] rh:{<budget>}, KEYS[2] rh:{<budget>}:owners; ARGV[1]
-- table, ARGV[2] the per-address key prefix. The address's set shares the hash tag, so it is in this slot too.
local owner = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
if owner then
  redis.call('ZREM', ARGV[2] .. owner, ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
return owner and 1 or 0
