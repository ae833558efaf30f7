/*
 * The one close-time module: every timestamp a deployment writes (`close_ts`, `first_close_ts`,
 * `last_close_ts`) is read to epoch milliseconds here, and written back in one canonical form.
 *
 * Read (interface.md: "ISO 8601 UTC datetime"; decisions.md D13): `YYYY-MM-DDTHH:MM:SS`, then
 * optional fractional seconds (`.` or `,`, 1 to 9 digits), then the zone: `Z` or `z`, or an offset
 * `±HH:MM`, `±HHMM` or `±HH` (`+00:00`, `+0000`, `-00:00` are UTC). A non-zero offset reads as the
 * instant it denotes (`2025-12-30T01:01:00+01:00` is `2025-12-30T00:01:00Z`): ISO 8601 makes that
 * instant exact, so reading it can never give a wrong time, and the canonical form handed on shows
 * no trace of it. Refused (NaN): a missing zone (a local time names no instant), a space for the
 * `T`, hour 24, second 60, a day the month lacks, years outside 0000..9999, and sub-millisecond
 * digits other than zero (the SDK carries times in milliseconds; dropping them would move the time).
 *
 * Written: `YYYY-MM-DDTHH:MM:SSZ` as the reference writes it (D5), or `YYYY-MM-DDTHH:MM:SS.sssZ`
 * when the milliseconds are not zero. Canonical texts of whole seconds (20 characters) also compare
 * as their instants do; a text with milliseconds sorts before its whole second, so compare numbers.
 */

const DAY_MS = 86_400_000
const ZERO = 48
const COLON = 58
const DOT = 46
const COMMA = 44
const DASH = 45
const PLUS = 43
const MINUS = 45
const LETTER_Z = 90
const LOWER_Z = 122
const LETTER_T = 84
const LOWER_T = 116

/**
 * The canonical form, for a check without parsing: a real day of a real month, `.sss` only when
 * not `.000`. The day part is zod's date pattern (leap years included).
 */
export const CANONICAL_TIMESTAMP =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.(?!000)\d{3})?Z$/

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Midnight (epoch ms) of a date, or NaN when the month lacks the day. */
function midnightOf(year: number, month: number, day: number): number {
  if (month < 1 || month > 12 || day < 1) return Number.NaN
  if (day > (month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!)) return Number.NaN
  return daysFromCivil(year, month, day) * DAY_MS
}

// The `YYYY-MM-DD` of the last text read and its midnight: a page holds many close times of one
// day in a row, and the date is most of the work.
let cachedDate = ''
let cachedMidnight = 0

/** A two-digit field at `at`, or -1 when either character is not a digit. */
function twoDigits(ts: string, at: number): number {
  const a = ts.charCodeAt(at) - ZERO
  const b = ts.charCodeAt(at + 1) - ZERO
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1
}

/** Midnight of the text's date (cached per day), or NaN. */
function dateOf(ts: string): number {
  if (cachedDate !== '' && ts.startsWith(cachedDate)) return cachedMidnight
  if (ts.charCodeAt(4) !== DASH || ts.charCodeAt(7) !== DASH) return Number.NaN
  const y1 = twoDigits(ts, 0)
  const y2 = twoDigits(ts, 2)
  if (y1 < 0 || y2 < 0) return Number.NaN
  const midnight = midnightOf(y1 * 100 + y2, twoDigits(ts, 5), twoDigits(ts, 8))
  if (Number.isNaN(midnight)) return midnight
  // A copy of its own: a slice would keep the whole page's text alive.
  cachedDate = `${ts.slice(0, 10)}`
  cachedMidnight = midnight
  return midnight
}

// Whether the last text read had a non-zero offset (its first 19 characters are then not UTC).
let shifted = false

/**
 * Epoch milliseconds of an ISO 8601 UTC instant in any form listed above; NaN when `text` is not
 * one (or carries sub-millisecond digits other than zero). Read by position, no regular
 * expression: a page's close times cost about what `Date.parse` costs for one.
 * @example
 * parseTimestamp('2025-12-30T00:01:00Z') === parseTimestamp('2025-12-30T00:01:00.000000+00:00') // true
 */
export function parseTimestamp(ts: string): number {
  shifted = false
  const n = ts.length
  if (n < 20) return Number.NaN
  const t = ts.charCodeAt(10)
  if ((t !== LETTER_T && t !== LOWER_T) || ts.charCodeAt(13) !== COLON || ts.charCodeAt(16) !== COLON) return Number.NaN
  const h = twoDigits(ts, 11)
  const m = twoDigits(ts, 14)
  const s = twoDigits(ts, 17)
  if (!(h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60)) return Number.NaN
  const midnight = dateOf(ts)
  if (Number.isNaN(midnight)) return midnight
  let ms = midnight + ((h * 60 + m) * 60 + s) * 1000
  let i = 19
  let c = ts.charCodeAt(i)
  if (c === DOT || c === COMMA) {
    // 1 to 9 digits: the first three are milliseconds, the rest must be zero.
    let scale = 100
    const from = ++i
    for (; i < n; i++) {
      const d = ts.charCodeAt(i) - ZERO
      if (d < 0 || d > 9) break
      if (i - from < 3) ms += d * scale
      else if (d !== 0) return Number.NaN
      scale /= 10
    }
    if (i === from || i - from > 9) return Number.NaN
    c = ts.charCodeAt(i)
  }
  if (c === LETTER_Z || c === LOWER_Z) return i + 1 === n ? ms : Number.NaN
  if (c !== PLUS && c !== MINUS) return Number.NaN
  // ±HH, ±HHMM or ±HH:MM
  const oh = twoDigits(ts, i + 1)
  const rest = n - i - 3
  const om = rest === 0 ? 0 : rest === 2 ? twoDigits(ts, i + 3) : rest === 3 && ts.charCodeAt(i + 3) === COLON ? twoDigits(ts, i + 4) : -1
  if (oh < 0 || oh > 23 || om < 0 || om > 59) return Number.NaN
  if (oh === 0 && om === 0) return ms
  shifted = true
  ms -= (c === MINUS ? -1 : 1) * (oh * 60 + om) * 60_000
  // An offset can move year 0000 or 9999 past what the canonical form can write.
  return ms < MIN_MS || ms > MAX_MS ? Number.NaN : ms
}

const MIN_MS = daysFromCivil(0, 1, 1) * DAY_MS
const MAX_MS = daysFromCivil(9999, 12, 31) * DAY_MS + DAY_MS - 1

// The `YYYY-MM-DDT` of the last UTC day formatted, as char codes: a page formats many instants of
// one day in a row.
let formattedDay = Number.NaN
const prefix = new Uint8Array(11)

/** The path of what the fast one does not cover (throws `RangeError` for what Date cannot hold). */
function formatViaDate(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso
}

/**
 * The canonical text of an instant: `YYYY-MM-DDTHH:MM:SSZ`, or `YYYY-MM-DDTHH:MM:SS.sssZ` when the
 * milliseconds are not zero (a fraction of a millisecond is dropped). Throws `RangeError` for NaN
 * and instants `Date` cannot hold; years outside 0000..9999 come out as `Date` writes them.
 * @example
 * formatTimestamp(Date.UTC(2025, 11, 30, 0, 1)) // '2025-12-30T00:01:00Z'
 */
export function formatTimestamp(ms: number): string {
  if (!Number.isSafeInteger(ms)) {
    const whole = Math.trunc(ms) // as Date does; NaN and ±Infinity stay and throw there
    return Number.isSafeInteger(whole) ? formatTimestamp(whole) : formatViaDate(ms)
  }
  const day = Math.floor(ms / DAY_MS)
  if (day !== formattedDay) {
    const iso = new Date(day * DAY_MS).toISOString() // throws RangeError outside ±8.64e15, like the Date path
    if (iso.length !== 24) return formatViaDate(ms) // years outside 0000..9999 are written ±YYYYYY
    for (let i = 0; i < 11; i++) prefix[i] = iso.charCodeAt(i)
    formattedDay = day
  }
  const inDay = ms - day * DAY_MS // 0 .. 86_399_999
  const seconds = (inDay / 1000) | 0
  const milli = inDay - seconds * 1000
  const minutes = (seconds / 60) | 0
  const h = (minutes / 60) | 0
  const m = minutes % 60
  const s = seconds % 60
  const p = prefix
  // One flat string: a concatenation would be a rope of six parts, which every later reader
  // (JSON encoding above all) must flatten first, at several times the cost of building it.
  if (milli === 0) {
    return String.fromCharCode(
      p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!, p[8]!, p[9]!, p[10]!,
      ZERO + ((h / 10) | 0), ZERO + (h % 10), COLON,
      ZERO + ((m / 10) | 0), ZERO + (m % 10), COLON,
      ZERO + ((s / 10) | 0), ZERO + (s % 10), LETTER_Z,
    )
  }
  return String.fromCharCode(
    p[0]!, p[1]!, p[2]!, p[3]!, p[4]!, p[5]!, p[6]!, p[7]!, p[8]!, p[9]!, p[10]!,
    ZERO + ((h / 10) | 0), ZERO + (h % 10), COLON,
    ZERO + ((m / 10) | 0), ZERO + (m % 10), COLON,
    ZERO + ((s / 10) | 0), ZERO + (s % 10), DOT,
    ZERO + ((milli / 100) | 0), ZERO + (((milli / 10) | 0) % 10), ZERO + (milli % 10), LETTER_Z,
  )
}

/**
 * True when `text` is an instant in the canonical form (what CANONICAL_TIMESTAMP matches), read by
 * position: the SDK's check of a page runs it on every close time.
 */
export function isCanonicalTimestamp(text: string): boolean {
  const n = text.length
  if ((n !== 20 && n !== 24) || text.charCodeAt(10) !== LETTER_T || text.charCodeAt(n - 1) !== LETTER_Z) return false
  if (n === 20) return !Number.isNaN(parseTimestamp(text))
  if (text.charCodeAt(19) !== DOT) return false
  const ms = parseTimestamp(text)
  return !Number.isNaN(ms) && ms % 1000 !== 0
}

/**
 * `text` itself when it is already canonical, else the canonical text of the instant it writes;
 * undefined when it is not an ISO 8601 UTC instant this module reads.
 * @example
 * canonicalTimestamp('2025-12-30T00:01:00+00:00') // '2025-12-30T00:01:00Z'
 */
export function canonicalTimestamp(text: string): string | undefined {
  const ms = parseTimestamp(text)
  if (Number.isNaN(ms)) return undefined
  // Read, so only the separator, the zone and the fraction's length can differ from canonical.
  const n = text.length
  if (text.charCodeAt(10) === LETTER_T && text.charCodeAt(n - 1) === LETTER_Z && (n === 20 || (n === 24 && text.charCodeAt(19) === DOT && ms % 1000 !== 0))) return text
  // The common other forms (`+00:00`, `.000000+00:00`, ...) of a whole second in UTC: the first 19
  // characters are already canonical (a non-zero offset moved the instant: written anew).
  if (!shifted && ms % 1000 === 0 && text.charCodeAt(10) === LETTER_T) return `${text.slice(0, 19)}Z`
  return formatTimestamp(ms)
}

/** The words for a text refused: the message of timestampSchema and the SDK checker's. */
export const timestampProblem = (input: unknown): string => `expected an ISO 8601 UTC datetime, got ${JSON.stringify(input)}`
