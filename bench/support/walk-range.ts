/**
 * Forward 1m ranges of BTC/USD on bitstamp that hold exactly `pages` full pages: candles sit on the
 * minute grid (close_ts = start + i min), so `end` = start + (pages * PAGE_LIMIT - 1) min is the
 * last candle of the last full page and the walk needs exactly `pages` requests.
 */
import { MINUTE, PAGE_LIMIT } from './fixtures.js'

export interface WalkRange {
  /** ISO strings, as sent on the wire (`new Date(ms).toISOString()`). */
  start: string
  end: string
  pages: number
  candles: number
}

export function fullPageRange(startMs: number, pages: number): WalkRange {
  if (startMs % MINUTE !== 0) throw new RangeError('start must sit on the minute grid')
  return {
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + (pages * PAGE_LIMIT - 1) * MINUTE).toISOString(),
    pages,
    candles: pages * PAGE_LIMIT,
  }
}

/** The SDK walk parameters for a range. */
export const walkParams = (range: WalkRange) =>
  ({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: range.start, end: range.end }) as const

/** A span with no candles: close_ts in `[from, to)` (an exchange outage), epoch ms. */
export interface Gap {
  from: number
  to: number
}

/**
 * The range from `startMs` (on the minute grid) that holds exactly `candles` 1m candles when the
 * series has a candle on every grid point outside `gaps`: the end moves out by each gap's minutes.
 */
export function rangeWithCandles(startMs: number, candles: number, gaps: readonly Gap[]): WalkRange {
  if (startMs % MINUTE !== 0) throw new RangeError('start must sit on the minute grid')
  const missing = (endMs: number) =>
    gaps.reduce((sum, g) => {
      const lo = Math.max(g.from, startMs)
      const hi = Math.min(g.to, endMs + 1)
      return sum + (hi > lo ? Math.ceil(hi / MINUTE) - Math.ceil(lo / MINUTE) : 0)
    }, 0)
  let endMs = startMs + (candles - 1) * MINUTE
  for (let i = 0; i < 100; i++) {
    const next = startMs + (candles - 1 + missing(endMs)) * MINUTE
    if (next === endMs) return { start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString(), pages: Math.ceil(candles / PAGE_LIMIT), candles }
    endMs = next
  }
  throw new Error('rangeWithCandles: no fixed point')
}
