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
  return Date.UTC(y, mo - 1, d, h, mi, s)
}

const str = (x: unknown): x is string => typeof x === 'string'
const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)

/** The row as a stored exchange candle and its close time, or undefined to let the schema judge it. */
export function fastExchangeCandle(r: Record<string, unknown>): { candle: ExchangeCandle; t: number; canonical: boolean } | undefined {
  const { exchange, interval, base, quote, close_ts, open, high, low, close, base_volume, quote_volume, source_provider, source_channel, flag } = r
  if (!str(exchange) || !str(interval) || !str(base) || !str(quote) || !str(close_ts) || !str(source_provider) || !str(source_channel)) return undefined
  if (!num(open) || !num(high) || !num(low) || !num(close) || !num(base_volume) || !num(quote_volume) || !(flag === null || str(flag))) return undefined
  const t = wholeSecondMs(close_ts)
  if (t === undefined) return undefined
  return {
    candle: { exchange, interval, base, quote, close_ts, open, high, low, close, base_volume, quote_volume, source_provider, source_channel, flag },
    t,
    canonical: close_ts.length === 20,
  }
}
