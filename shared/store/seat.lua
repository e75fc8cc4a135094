-- Replace one seat of a table's meta (who controls it: human or bot, and the bot level).
-- KEYS[1] meta hash; with a table clock also KEYS[2] log stream, KEYS[3] clock stream.
-- ARGV[1] seat index (0-based), ARGV[2] the seat as JSON; with a clock ARGV[3] the clock
-- event kind ('bot', 'human' or 'timeout'), ARGV[4] time ms, ARGV[5] the log's expected last
-- seq ('' any), ARGV[6] the clock stream's expected last id ('' any; '0-0' empty), ARGV[7]
-- the timeout's outcome. Written together, so the clock (shared/clock.py) always knows who
-- played the seat when. Loaded after position.lua.
-- Returns the new seats_version (>= 1; every append returns it, so replicas holding the
-- table learn of the change), 0 if the table does not exist, -1 if the seat does not exist,
-- -2 if the log or the clock stream moved past what was expected, -3 if the table ended.
local raw = redis.call('HGET', KEYS[1], 'seats')
if not raw then
  return 0
end
local seats = cjson.decode(raw)
local index = tonumber(ARGV[1]) + 1
if index < 1 or index > #seats then
  return -1
end
if KEYS[3] then
  if redis.call('HEXISTS', KEYS[1], 'ended') == 1 then
    return -3
  end
  local last, ev_id = position(KEYS[2], KEYS[3])
  if (ARGV[5] ~= '' and tonumber(ARGV[5]) ~= last) or (ARGV[6] ~= '' and ARGV[6] ~= ev_id) then
    return -2
  end
  redis.call('XADD', KEYS[3], '*', 'seq', last, 'seat', ARGV[1], 'kind', ARGV[3], 't', ARGV[4], 'outcome', ARGV[7] or '')
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then
    redis.call('PEXPIRE', KEYS[3], ttl)
  end
end
seats[index] = cjson.decode(ARGV[2])
redis.call('HSET', KEYS[1], 'seats', cjson.encode(seats))
return redis.call('HINCRBY', KEYS[1], 'seats_version', 1)
