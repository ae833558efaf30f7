// The `YYYY-MM-DDT` of the last day parsed and its midnight: walks and resamples read many close
// times of one day in a row, and Date.parse costs more than the rest of a candle.
let cachedPrefix = ''
let cachedMidnight = Number.NaN

// Two decimal digits at `at`, or -1.
function twoDigits(ts: string, at: number): number {
  const a = ts.charCodeAt(at) - 48
  const b = ts.charCodeAt(at + 1) - 48
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1
}

/**
 * Epoch milliseconds of a close time. The service's own `YYYY-MM-DDTHH:MM:SSZ` is read from its
 * characters, the date part once per UTC day; any other form goes through `Date.parse`. NaN when
 * the text is not a datetime.
 */
export function closeTimeMs(ts: string): number {
  if (ts.length !== 20 || ts.charCodeAt(10) !== 84 || ts.charCodeAt(19) !== 90) return Date.parse(ts)
  if (!ts.startsWith(cachedPrefix) || cachedPrefix === '') {
    const midnight = Date.parse(`${ts.slice(0, 10)}T00:00:00Z`)
    if (Number.isNaN(midnight)) return Number.NaN
    cachedPrefix = ts.slice(0, 11)
    cachedMidnight = midnight
  }
  const h = twoDigits(ts, 11)
  const m = twoDigits(ts, 14)
  const s = twoDigits(ts, 17)
  if (!(h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60) || ts.charCodeAt(13) !== 58 || ts.charCodeAt(16) !== 58) return Date.parse(ts)
  return cachedMidnight + ((h * 60 + m) * 60 + s) * 1000
}
