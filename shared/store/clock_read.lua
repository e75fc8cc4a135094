-- What a table clock needs, read in one step (so no clock event is seen before the log
-- entries it comes after). KEYS[1] log stream, KEYS[2] clock stream.
-- ARGV[1] last seq already read, ARGV[2] last clock event id already read ('0-0': none),
-- ARGV[3] most log entries to return.
-- Returns {flat log marks: seq, seat, t, active JSON or '', 1 for an undo/redo else 0, ...,
--          clock events: id, {field, value, ...}, ...}.
local marks = {}
local entries = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1] .. '-0', '+', 'COUNT', tonumber(ARGV[3]))
for _, e in ipairs(entries) do
  local f = {}
  for i = 1, #e[2], 2 do
    f[e[2][i]] = e[2][i + 1]
  end
  local action = f['action'] or ''
  local undo = 0
  if string.sub(action, 1, 15) == '{"type":"undo"}' or string.sub(action, 1, 15) == '{"type":"undo",'
      or string.sub(action, 1, 15) == '{"type":"redo"}' then
    undo = 1
  end
  marks[#marks + 1] = string.match(e[1], '^(%d+)')
  marks[#marks + 1] = f['seat']
  marks[#marks + 1] = f['t']
  marks[#marks + 1] = f['a'] or ''
  marks[#marks + 1] = undo
end
local events = {}
local start = '(' .. ARGV[2]
if ARGV[2] == '0-0' then
  start = '-'
end
for _, e in ipairs(redis.call('XRANGE', KEYS[2], start, '+')) do
  events[#events + 1] = e[1]
  events[#events + 1] = e[2]
end
return {marks, events}
