import { ROUND_TRIP_AGE_MS } from '../rate-limit/aging-minimum.js'

/*
 * The Redis side of the shared limiter: storage only, no policy. One key per account holds the
 * window's state as JSON: v (a version, bumped by every change but a take that can delay a
 * request), t (how many slots were taken), s (the
 * latest slots: [id, sent, cold, completed or -1, leaseUntil]), rt and rq (the smallest round trip
 * of the current epoch of ROUND_TRIP_AGE_MS and of the one before, -1 when none: the smallest
 * round trip ages, aging-minimum.ts), re (when the current epoch began) and p (no request before this time). Every script reads Redis's clock (TIME),
 * the only clock the workers share; times are milliseconds, returned as strings (Redis would
 * truncate a Lua number to an integer).
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`

const LOAD = `local raw = redis.call('GET', KEYS[1])
local st
if raw then st = cjson.decode(raw) else st = { v = 0, t = 0, s = {}, rt = -1, p = 0 } end
if type(st.s) ~= 'table' then st.s = {} end
st.t = tonumber(st.t) or 0`

const SAVE = (ttl: string) => `redis.call('SET', KEYS[1], cjson.encode(st), 'PX', math.floor(${ttl}))`

/** Reads the state: [now, state JSON or '']. */
export const PEEK = `${NOW}
return { tostring(now), redis.call('GET', KEYS[1]) or '' }`

/**
 * Takes a slot if the state is still the version the caller decided on and Redis's clock has
 * reached the time the caller's policy gave for the next take after those taken since it looked.
 * ARGV: version, takes seen, id, cold (0/1), lease ms, slots kept, ttl ms, then the times of the
 * next takes (ms), earliest first. Returns [1, now], or [0, now, state JSON or ''] to decide again.
 */
export const TAKE = `${NOW}
${LOAD}
local since = st.t - tonumber(ARGV[2])
local notBefore = tonumber(ARGV[8 + since])
if tonumber(st.v) ~= tonumber(ARGV[1]) or since < 0 or notBefore == nil or now < notBefore then
  return { 0, tostring(now), raw or '' }
end
table.insert(st.s, { ARGV[3], now, tonumber(ARGV[4]), -1, now + tonumber(ARGV[5]) })
while #st.s > tonumber(ARGV[6]) do table.remove(st.s, 1) end
st.t = st.t + 1
${SAVE('tonumber(ARGV[7])')}
return { 1, tostring(now) }`

/**
 * Marks a slot answered at ARGV[4] (its send time on Redis's clock plus the round trip the worker
 * measured: a busy worker's late call does not make it later), never later than now. ARGV: id,
 * round trip ms, ttl ms, answered at (ms).
 */
export const COMPLETE = `${NOW}
${LOAD}
for _, slot in ipairs(st.s) do
  if slot[1] == ARGV[1] and tonumber(slot[4]) < 0 then slot[4] = math.min(now, tonumber(ARGV[4])) end
end
local rt = tonumber(ARGV[2])
local age = ${ROUND_TRIP_AGE_MS}
local cur = tonumber(st.rt) or -1
local prev = tonumber(st.rq) or -1
local since = tonumber(st.re) or now
local function least(a, b)
  if a < 0 then return b end
  if b < 0 or a < b then return a end
  return b
end
-- An epoch older than the age becomes the previous one (forgotten after two): aging only frees
-- slots earlier, which no other worker must see.
if now - since >= age then
  if now - since >= 2 * age then prev = -1 else prev = cur end
  cur = -1
  since = now
end
local before = least(cur, prev)
cur = least(cur, rt)
st.rt = cur
st.rq = prev
st.re = since
-- A smaller round trip moves every slot's plausible arrival later: a change that can delay.
if before < 0 or least(cur, prev) < before then st.v = st.v + 1 end
${SAVE('tonumber(ARGV[3])')}
return tostring(now)`

/** Holds every request of the account back for ARGV[1] ms from now. ARGV: ms, ttl ms. */
export const PAUSE = `${NOW}
${LOAD}
local untilMs = now + tonumber(ARGV[1])
if untilMs > tonumber(st.p) then
  st.p = untilMs
  st.v = st.v + 1
end
${SAVE('math.max(tonumber(ARGV[2]), tonumber(ARGV[1]) + 2000)')}
return tostring(now)`

/** Extends the lease of slots still in flight. ARGV: lease ms, ttl ms, ids... */
export const RENEW = `${NOW}
${LOAD}
local ids = {}
for i = 3, #ARGV do ids[ARGV[i]] = true end
for _, slot in ipairs(st.s) do
  if ids[slot[1]] and tonumber(slot[4]) < 0 then
    -- A lapsed lease taken back can delay others (its slot was free to them): a change.
    if tonumber(slot[5]) <= now then st.v = st.v + 1 end
    slot[5] = now + tonumber(ARGV[1])
  end
end
${SAVE('tonumber(ARGV[2])')}
return tostring(now)`
