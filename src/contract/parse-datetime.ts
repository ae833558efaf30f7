/**
 * The datetime grammar (contract: time): ISO 8601 with `Z` or a numeric offset, optional fractional
 * seconds, a bare date (midnight UTC), or a datetime without zone (read as UTC).
 */
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/

/** Why a string is not a datetime, in pydantic's words where it has some. */
export type DateTimeParseResult = { ok: true; ms: number } | { ok: false; reason: string }

const MIN_MS = new Date('0001-01-01T00:00:00Z').getTime()
const MAX_MS = new Date('9999-12-31T23:59:59.999Z').getTime()
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

const bits = new Float64Array(1)
const word = new BigInt64Array(bits.buffer)

/** The next double after `x` towards `direction` (x is a whole number of ms, never 0 here but handled). */
function nextDouble(x: number, direction: 1 | -1): number {
  if (x === 0) return direction * Number.MIN_VALUE
  bits[0] = x
  word[0]! += (x > 0) === (direction > 0) ? 1n : -1n
  return bits[0]!
}

/**
 * `whole` ms plus the digits after the third fractional one (up to six: down to the nanosecond).
 * A double near today's epoch ms holds about a quarter of a microsecond, so 7 to 9 digits would
 * vanish in a plain sum (`.0000001` read as `.000`, admitting the candle at the whole second).
 * Any sub-millisecond digit other than zero keeps the value strictly between `whole` and
 * `whole + 1`, so every comparison with a whole-millisecond instant (every `close_ts`) is exact.
 */
function withSubMillisecond(whole: number, digits: string): number {
  const nanos = Number(digits.padEnd(6, '0') || '0')
  if (nanos === 0) return whole
  const sum = whole + nanos / 1e6
  if (sum <= whole) return nextDouble(whole, 1)
  if (sum >= whole + 1) return nextDouble(whole + 1, -1)
  return sum
}

/**
 * Parses a datetime (contract: time) into epoch milliseconds. Sub-millisecond digits are kept as a fraction, so
 * bounds compare exactly. Instants outside years 0001..9999 (UTC) are refused.
 */
export function parseDateTime(text: string): DateTimeParseResult {
  if (text.length < 10) return { ok: false, reason: 'input is too short' }
  const m = DATETIME.exec(text)
  if (!m) return { ok: false, reason: 'input is not an ISO 8601 date or datetime' }
  const [, y, mo, d, hh, mi, ss, frac, , sign, oh, om] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12) return { ok: false, reason: 'month value is outside expected range of 1-12' }
  const maxDay = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!
  if (day < 1 || day > maxDay) return { ok: false, reason: 'day value is outside expected range' }
  const hour = hh === undefined ? 0 : Number(hh)
  const minute = mi === undefined ? 0 : Number(mi)
  const second = ss === undefined ? 0 : Number(ss)
  if (hour > 23) return { ok: false, reason: 'hour value is outside expected range of 0-23' }
  if (minute > 59) return { ok: false, reason: 'minute value is outside expected range of 0-59' }
  if (second > 59) return { ok: false, reason: 'second value is outside expected range of 0-59' }
  let offsetMinutes = 0
  if (sign !== undefined) {
    const offH = Number(oh)
    const offM = Number(om)
    if (offH > 23 || offM > 59) return { ok: false, reason: 'timezone offset is outside expected range' }
    offsetMinutes = (sign === '-' ? -1 : 1) * (offH * 60 + offM)
  }
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, 0)
  const whole = date.getTime() - offsetMinutes * 60_000 + (frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0')))
  const ms = withSubMillisecond(whole, frac === undefined ? '' : frac.slice(3))
  // An offset can push year 0001 or 9999 out of the range every output format can write.
  if (ms < MIN_MS || ms > MAX_MS) return { ok: false, reason: 'datetime is outside 0001-01-01 to 9999-12-31 UTC' }
  return { ok: true, ms }
}

/** Epoch ms of a query's datetime (`start`, `end`: the grammar above, zoneless read as UTC); NaN when it is none. */
export function dateTimeMs(text: string): number {
  const parsed = parseDateTime(text)
  return parsed.ok ? parsed.ms : Number.NaN
}
