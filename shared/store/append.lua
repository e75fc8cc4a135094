-- Append one action to a table's log, atomically with its idempotency record.
-- KEYS[1] log stream, KEYS[2] idempotency key, KEYS[3] meta hash (one hash slot).
-- ARGV: expected_seq, seat, action JSON, idempotency key, time ms, reply, reply TTL ms,
--       new status ('' keeps it), time to live ms of the table after this entry (0: none;
--       the expiry policy, docs/running.md#the-stores-budget), '1' when the caller waits for
--       replicas (WAIT) after it, the seats active after this entry as JSON ('' leaves the
--       field out; table clocks are folded from it: shared/clock.py).
-- Returns {'duplicate', 0, stored reply} | {'missing', 0} | {'conflict', last seq}
--       | {'ended', last seq} (the table ended outside the rules: a clock ran out)
--       | {'ok', seq, seats_version}.
local stored = redis.call('GET', KEYS[2])
if stored then
  -- A retry that will WAIT: write something (renew the record's TTL), so this connection's
  -- replication offset covers the original append and the WAIT that follows means it.
  if ARGV[10] == '1' then
    redis.call('PEXPIRE', KEYS[2], ARGV[7])
  end
  return {'duplicate', 0, stored}
end
if redis.call('EXISTS', KEYS[3]) == 0 then
  return {'missing', 0}
end
if redis.call('HEXISTS', KEYS[3], 'ended') == 1 then
  return {'ended', tonumber(redis.call('HGET', KEYS[3], 'last_seq') or '0')}
end
-- The stream ids are `<seq>-0`, so the newest id is the last seq: the log is the only truth.
local last = 0
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if top[1] then
  last = tonumber(string.match(top[1][1], '^(%d+)'))
end
if last ~= tonumber(ARGV[1]) then
  return {'conflict', last}
end
local seq = last + 1
if ARGV[11] and ARGV[11] ~= '' then
  redis.call('XADD', KEYS[1], seq .. '-0', 'seat', ARGV[2], 'action', ARGV[3], 'key', ARGV[4], 't', ARGV[5], 'a', ARGV[11])
else
  redis.call('XADD', KEYS[1], seq .. '-0', 'seat', ARGV[2], 'action', ARGV[3], 'key', ARGV[4], 't', ARGV[5])
end
redis.call('SET', KEYS[2], ARGV[6], 'PX', ARGV[7])
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[3], 'last_seq', seq, 'updated_ms', ARGV[5], 'status', ARGV[8])
else
  redis.call('HSET', KEYS[3], 'last_seq', seq, 'updated_ms', ARGV[5])
end
local ttl = tonumber(ARGV[9] or '0')
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('PEXPIRE', KEYS[1], ttl)
else
  redis.call('PERSIST', KEYS[3])
  redis.call('PERSIST', KEYS[1])
end
return {'ok', seq, tonumber(redis.call('HGET', KEYS[3], 'seats_version') or '0')}
