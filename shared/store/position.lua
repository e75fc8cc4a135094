-- Prepended to the scripts that act on a table's clock (seat.lua, abandon.lua): where its
-- log and clock stream stand now. Returns the log's last seq and the clock stream's last id
-- ('0-0' when it has none).
local function position(log_key, clock_key)
  local top = redis.call('XREVRANGE', log_key, '+', '-', 'COUNT', 1)
  local last = 0
  if top[1] then
    last = tonumber(string.match(top[1][1], '^(%d+)'))
  end
  local ev = redis.call('XREVRANGE', clock_key, '+', '-', 'COUNT', 1)
  local ev_id = '0-0'
  if ev[1] then
    ev_id = ev[1][1]
  end
  return last, ev_id
end
