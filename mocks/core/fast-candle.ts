import type { ExchangeCandle } from '../../src/schemas/index.js'

/*
 * The common case of a batch row, checked without zod: a plain exchange candle whose close_ts is
 * `YYYY-MM-DDTHH:MM:SS[.000]Z`. zod costs ~18 µs a row, this ~1 µs, so 100,000 rows put in well
 * under a second. It accepts a subset of what exchangeCandleSchema accepts (anything else goes to
 * the schema, which names the problem), and builds the same object the schema's parse would.
 */

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** The number written by the digits of `text` in [from, to), or -1 when one is not a digit (read by char codes: a regex and its match array cost more). */
function digits(text: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

/** Epoch ms of a whole-second UTC timestamp `YYYY-MM-DDTHH:MM:SS[.000]Z`, or undefined when it is anything else. */
export function wholeSecondMs(text: string): number | undefined {
  const n = text.length
  if (n < 20 || text.charCodeAt(n - 1) !== 90 /* Z */) return undefined
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return undefined
  if (n > 20) {
    // Only a fraction of zeros: `.000Z` names the same whole second.
    if (text[19] !== '.' || n > 30 || n === 21) return undefined
    for (let i = 20; i < n - 1; i++) if (text.charCodeAt(i) !== 48) return undefined
  }
  const y = digits(text, 0, 4)
  const mo = digits(text, 5, 7)
  const d = digits(text, 8, 10)
  const h = digits(text, 11, 13)
  const mi = digits(text, 14, 16)
  const s = digits(text, 17, 19)
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return undefined
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  if (d > (mo === 2 && leap ? 29 : DAYS[mo - 1]!)) return undefined
  return daysFromCivil(y, mo, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + s * 1000
}

/** Days since 1970-01-01 of a proleptic Gregorian date (integer arithmetic, what Date.UTC computes, without the call). */
function daysFromCivil(y: number, m: number, d: number): number {
  if (m <= 2) y -= 1
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const str = (x: unknown): x is string => typeof x === 'string'
const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)

/** The close time and form of the candle {@link fastExchangeCandle} returned last (read before the next call). */
export const fastRead = { t: 0, canonical: false }

/**
 * The row as a stored exchange candle, or undefined to let the schema judge it; its close time and
 * whether close_ts is already written as the service writes it are left in {@link fastRead} (no
 * object per row for them).
 * `owned`: the row is the caller's own fresh object of exactly these fields (what `load` read from a
 * file) and is kept as it is, not copied: a million-candle load then allocates each candle once.
 */
export function fastExchangeCandle(r: Record<string, unknown>, owned = false): ExchangeCandle | undefined {
  const { exchange, interval, base, quote, close_ts, open, high, low, close, base_volume, quote_volume, source_provider, source_channel, flag } = r
  if (!str(exchange) || !str(interval) || !str(base) || !str(quote) || !str(close_ts) || !str(source_provider) || !str(source_channel)) return undefined
  if (!num(open) || !num(high) || !num(low) || !num(close) || !num(base_volume) || !num(quote_volume) || !(flag === null || str(flag))) return undefined
  const t = wholeSecondMs(close_ts)
  if (t === undefined) return undefined
  fastRead.t = t
  fastRead.canonical = close_ts.length === 20
  return owned ? (r as ExchangeCandle) : { exchange, interval, base, quote, close_ts, open, high, low, close, base_volume, quote_volume, source_provider, source_channel, flag }
}
