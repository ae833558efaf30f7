import { describe, expect, test } from 'vitest'
import { OUTPUT_THREAD_MIN_CANDLES, plannedCandles, useOutputThread } from '../../cli/export/output-thread-choice.js'
import type { Series } from '../../cli/export/series.js'

const H = 3_600_000
const T0 = Date.parse('2024-01-01T00:00:00Z')
/** No --start, no --end. */
const ALL = { start: undefined, end: undefined }
const hourly = (first: number, last: number, base = 'BTC'): Series => ({ kind: 'exchange', source: 'bitstamp', interval: '1h', base, quote: 'USD', first, last })

describe('export: which outputs get a thread of their own', () => {
  test('the candles planned are those of the catalog coverage within --start/--end, inclusive, per series', () => {
    const a = hourly(T0, T0 + 99 * H)
    const b = hourly(T0 + 50 * H, T0 + 199 * H, 'ETH')
    expect(plannedCandles([a], ALL)).toBe(100)
    expect(plannedCandles([a, b], { start: T0 + 10 * H, end: T0 + 59 * H })).toBe(50 + 10)
    // a range outside a series' coverage adds nothing
    expect(plannedCandles([a], { ...ALL, start: T0 + 500 * H })).toBe(0)
    // an interval it does not know: counted as unbounded (a thread)
    expect(plannedCandles([{ ...a, interval: '7x' }], ALL)).toBe(Infinity)
  })

  test('a short history into a file is written on the export thread; a long one, a follow, PostgreSQL get the output thread; stdout never', () => {
    const short = [hourly(T0, T0 + (OUTPUT_THREAD_MIN_CANDLES - 2) * H)]
    const long = [hourly(T0, T0 + OUTPUT_THREAD_MIN_CANDLES * H)]
    const file = { out: 'x.sqlite', follow: false, format: 'sqlite' as const, start: undefined, end: undefined }
    expect(useOutputThread(file, short)).toBe(false)
    expect(useOutputThread(file, long)).toBe(true)
    expect(useOutputThread({ ...file, follow: true }, short)).toBe(true)
    expect(useOutputThread({ ...file, out: 'postgres://u@h/db', format: 'postgres' }, short)).toBe(true)
    expect(useOutputThread({ ...file, out: '-', format: 'csv' }, long)).toBe(false)
    // --end inside a long coverage makes it short
    expect(useOutputThread({ ...file, end: T0 + 100 * H }, long)).toBe(false)
  })
})
