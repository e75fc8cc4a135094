-- End a table whose seat ran out of time (a table clock with on_timeout=abandon).
-- KEYS[1] meta hash, KEYS[2] log stream, KEYS[3] clock stream.
-- ARGV[1] the log's expected last seq, ARGV[2] the clock stream's expected last id ('0-0':
-- empty), ARGV[3] the seat, ARGV[4] time ms, ARGV[5] the standings (a Result as JSON).
-- The checks make it happen once, whichever replica's clock watch gets there first, and
-- never after a move that came in time. Loaded after position.lua. Returns 1, 0 (no table), -2 (moved on), -3 (ended).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if redis.call('HEXISTS', KEYS[1], 'ended') == 1 then
  return -3
end
local last, ev_id = position(KEYS[2], KEYS[3])
if tonumber(ARGV[1]) ~= last or ARGV[2] ~= ev_id then
  return -2
end
redis.call('XADD', KEYS[3], '*', 'seq', last, 'seat', ARGV[3], 'kind', 'timeout', 't', ARGV[4], 'outcome', 'abandon')
redis.call('HSET', KEYS[1], 'ended', ARGV[5], 'status', 'finished', 'updated_ms', ARGV[4])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 1
