-- Replace one seat of a table's meta (who controls it: human or bot, and the bot level).
-- KEYS[1] meta hash. ARGV[1] seat index (0-based), ARGV[2] the seat as JSON.
-- Returns the new seats_version (>= 1; every append returns it, so replicas holding the
-- table learn of the change), 0 if the table does not exist, -1 if the seat does not exist.
local raw = redis.call('HGET', KEYS[1], 'seats')
if not raw then
  return 0
end
local seats = cjson.decode(raw)
local index = tonumber(ARGV[1]) + 1
if index < 1 or index > #seats then
  return -1
end
seats[index] = cjson.decode(ARGV[2])
redis.call('HSET', KEYS[1], 'seats', cjson.encode(seats))
return redis.call('HINCRBY', KEYS[1], 'seats_version', 1)
