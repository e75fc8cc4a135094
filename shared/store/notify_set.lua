-- Set (or clear) one seat's turn-notice settings. KEYS[1] the table's notify hash, KEYS[2]
-- its meta hash. ARGV[1] seat, ARGV[2] the settings JSON ('' clears them). Marks the meta
-- (`notify`) while any seat has settings and bumps seats_version, so every game service
-- replica holding the table learns of it at its next append. Returns 0 if there is no table.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  local ttl = redis.call('PTTL', KEYS[2])
  if ttl > 0 then
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
end
if redis.call('HLEN', KEYS[1]) > 0 then
  redis.call('HSET', KEYS[2], 'notify', '1')
else
  redis.call('HDEL', KEYS[2], 'notify')
end
return redis.call('HINCRBY', KEYS[2], 'seats_version', 1)
