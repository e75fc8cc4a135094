-- One turn notice's delivery record in a table's outbox (a hash beside its log), so a crash
-- never loses a notice and never sends a channel twice except in the instant between a send
-- and its record (the delivery id lets a receiver drop that one).
-- KEYS[1] outbox hash. ARGV[1] 'claim' | 'settle', ARGV[2] field (`<seat>:<turn seq>`), ARGV[3] now ms.
-- claim: ARGV[4] lease ms. Takes the notice if it is pending, not leased and not waiting
--   for a retry: returns the record (JSON) with attempts + 1, or false.
-- settle: ARGV[4] the attempt number the caller holds, ARGV[5] the channels done (comma
--   list), ARGV[6] 'sent' | 'pending' | 'gave_up', ARGV[7] next try ms (pending), ARGV[8]
--   the last error. Written only while the caller's attempt is the record's: 1, else 0.
local raw = redis.call('HGET', KEYS[1], ARGV[2])
local rec
if raw then
  rec = cjson.decode(raw)
else
  rec = {state = 'pending', attempts = 0, next = 0, lease = 0, done = '', error = ''}
end
local now = tonumber(ARGV[3])
if ARGV[1] == 'claim' then
  if rec.state ~= 'pending' or rec.lease > now or rec.next > now then
    return false
  end
  rec.attempts = rec.attempts + 1
  rec.lease = now + tonumber(ARGV[4])
  rec.claimed = now
  local out = cjson.encode(rec)
  redis.call('HSET', KEYS[1], ARGV[2], out)
  return out
end
if not raw or rec.attempts ~= tonumber(ARGV[4]) then
  return 0
end
rec.done = ARGV[5]
rec.state = ARGV[6]
rec.next = tonumber(ARGV[7])
rec.error = ARGV[8]
if ARGV[6] ~= 'pending' or rec.next > 0 then
  rec.lease = 0
end
redis.call('HSET', KEYS[1], ARGV[2], cjson.encode(rec))
return 1
