const DAY_MS = 86_400_000

/** '00' .. '59'. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, i) => (i < 10 ? `0${i}` : `${i}`))

// The `YYYY-MM-DDT` of the last UTC day formatted: walks format many instants of one day in a row.
let cachedDay = Number.NaN
let cachedPrefix = ''

/** The reference path; also every instant the fast path does not cover (throws `RangeError` like it). */
function formatViaDate(ms: number): string {
  const iso = new Date(ms).toISOString()
  // toISOString always has milliseconds; close_ts never does.
  return `${iso.slice(0, 19)}Z`
}

/**
 * Formats epoch milliseconds as `YYYY-MM-DDTHH:MM:SSZ`, the service's only output format (D5).
 * Milliseconds are truncated. Same output as `new Date(ms).toISOString()` without them, but the date
 * part is computed once per UTC day (integer `ms` in years 0000..9999; anything else takes the Date path).
 */
export function formatTimestamp(ms: number): string {
  if (!Number.isSafeInteger(ms)) return formatViaDate(ms) // fractions truncate toward zero in Date; NaN, ±Infinity throw
  const day = Math.floor(ms / DAY_MS)
  if (day !== cachedDay) {
    const iso = new Date(day * DAY_MS).toISOString() // throws RangeError outside ±8.64e15, like the Date path
    if (iso.length !== 24) return formatViaDate(ms) // years outside 0000..9999 are written ±YYYYYY
    cachedPrefix = iso.slice(0, 11)
    cachedDay = day
  }
  const seconds = ((ms - day * DAY_MS) / 1000) | 0 // 0 .. 86399
  const minutes = (seconds / 60) | 0
  return `${cachedPrefix}${TWO_DIGITS[(minutes / 60) | 0]}:${TWO_DIGITS[minutes % 60]}:${TWO_DIGITS[seconds % 60]}Z`
}

/** Formats epoch milliseconds as ISO 8601 with milliseconds, for cursor values like `close_ts + 1 ms` (D11). */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString()
}
