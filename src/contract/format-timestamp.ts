const DAY_MS = 86_400_000

const ZERO = 48
const COLON = 58
const Z = 90

// The `YYYY-MM-DDT` of the last UTC day formatted, as char codes: walks format many instants of one
// day in a row.
let cachedDay = Number.NaN
const prefix = new Uint8Array(11)

/** The reference path; also every instant the fast path does not cover (throws `RangeError` like it). */
function formatViaDate(ms: number): string {
  const iso = new Date(ms).toISOString()
  // toISOString always has milliseconds; close_ts never does.
  return `${iso.slice(0, 19)}Z`
}

/**
 * Formats epoch milliseconds as `YYYY-MM-DDTHH:MM:SSZ`, the service's only output format (contract: time).
 * Milliseconds are truncated. Same output as `new Date(ms).toISOString()` without them, but the date
 * part is computed once per UTC day (integer `ms` in years 0000..9999; anything else takes the Date path).
 */
export function formatTimestamp(ms: number): string {
  if (!Number.isSafeInteger(ms)) return formatViaDate(ms) // fractions truncate toward zero in Date; NaN, ±Infinity throw
  const day = Math.floor(ms / DAY_MS)
  if (day !== cachedDay) {
    const iso = new Date(day * DAY_MS).toISOString() // throws RangeError outside ±8.64e15, like the Date path
    if (iso.length !== 24) return formatViaDate(ms) // years outside 0000..9999 are written ±YYYYYY
    for (let i = 0; i < 11; i++) prefix[i] = iso.charCodeAt(i)
    cachedDay = day
  }
  const seconds = ((ms - day * DAY_MS) / 1000) | 0 // 0 .. 86399
  const minutes = (seconds / 60) | 0
  const h = (minutes / 60) | 0
  const m = minutes % 60
  const s = seconds % 60
  // One flat string: a concatenation would be a rope of six parts, which every later reader
  // (JSON encoding above all) must flatten first, at several times the cost of building it.
  const p = prefix
  return String.fromCharCode(
    p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!, p[8]!, p[9]!, p[10]!,
    ZERO + ((h / 10) | 0), ZERO + (h % 10), COLON,
    ZERO + ((m / 10) | 0), ZERO + (m % 10), COLON,
    ZERO + ((s / 10) | 0), ZERO + (s % 10), Z,
  )
}
