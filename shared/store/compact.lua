-- Compact a finished (or abandoned) table to its result and final position (the retention
-- policy, services/game/retention.py): the log goes, the meta keeps the result in `ended`
-- and the snapshot holds the position after the last entry.
-- KEYS[1] meta hash, KEYS[2] log stream, KEYS[3] snapshot, KEYS[4..] the table's other keys
-- (clock stream, chat, mutes, notify, outbox), which expire with it.
-- ARGV[1] the last seq the snapshot is at, ARGV[2] the snapshot ("<seq>:<blob>"), ARGV[3]
-- the result as JSON, ARGV[4] time ms, ARGV[5] time to live ms from now (0: none).
-- Returns 1, 0 (no table), -2 (a move came meanwhile: decide again).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if tonumber(redis.call('HGET', KEYS[1], 'last_seq') or '0') ~= tonumber(ARGV[1]) then
  return -2
end
if redis.call('HEXISTS', KEYS[1], 'ended') == 0 then
  redis.call('HSET', KEYS[1], 'ended', ARGV[3])
end
redis.call('HSET', KEYS[1], 'status', 'finished', 'compacted_ms', ARGV[4])
redis.call('SET', KEYS[3], ARGV[2])
redis.call('UNLINK', KEYS[2])
local ttl = tonumber(ARGV[5])
for i = 1, #KEYS do
  if i ~= 2 then
    if ttl > 0 then
      redis.call('PEXPIRE', KEYS[i], ttl)
    else
      redis.call('PERSIST', KEYS[i])
    end
  end
end
return 1
