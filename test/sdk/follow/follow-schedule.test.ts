import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { afterCandles, afterEmpty, backoffMs } from '../../../src/follow/schedule.js'
import { SeriesPosition } from '../../../src/follow/series-position.js'

const MIN = 60_000
const INTERVALS = [MIN, 60 * MIN, 1440 * MIN]

describe('the follow schedule: the next request just after the next candle is due, a bounded backoff when it is late', () => {
  test('after a candle, the next request is due at the next close plus the settle delay; a full page is asked for again at once', () => {
    const close = Date.UTC(2026, 0, 1, 10, 0)
    expect(afterCandles(close, false, MIN, 2000, close + 2500)).toEqual({ expected: close + MIN, attempts: 0, due: close + MIN + 2000 })
    expect(afterCandles(close, true, MIN, 2000, close + 2500)).toEqual({ expected: close + MIN, attempts: 0, due: close + 2500 })
  })

  test('a late candle (its due time already past) is asked for again after the first backoff, not at once', () => {
    const close = Date.UTC(2026, 0, 1, 10, 0)
    const now = close + MIN + 5000
    expect(afterCandles(close, false, MIN, 2000, now)).toEqual({ expected: close + MIN, attempts: 1, due: now + backoffMs(1, 2000) })
  })

  test('for a 1m candle that never comes: 2 s, 8 s, 32 s, then the next close; never a tight loop, never an endless wait', () => {
    const expected = Date.UTC(2026, 0, 1, 10, 1)
    let s = { expected, attempts: 0, due: expected + 2000 }
    const asked: number[] = []
    for (let now = s.due; s.expected === expected; now = s.due) {
      asked.push((now - expected) / 1000)
      s = afterEmpty(s, MIN, 2000, now)
    }
    expect(asked).toEqual([2, 4, 12, 44])
    expect(s).toEqual({ expected: expected + MIN, attempts: 0, due: expected + MIN + 2000 })
  })

  test('property: every wait is in the future and at least the first backoff long, and a missing candle costs a bounded number of requests inside its interval', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERVALS), fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 0, max: 10 * MIN }), (interval, settle, lateBy) => {
        const expected = Date.UTC(2026, 0, 1) + interval
        let s = { expected, attempts: 0, due: expected + settle + lateBy }
        let requests = 0
        for (let now = s.due; s.expected === expected && requests < 100; now = s.due) {
          requests++
          const next = afterEmpty(s, interval, settle, now)
          expect(next.due - now).toBeGreaterThanOrEqual(Math.min(backoffMs(1, settle), next.expected + settle - now))
          expect(next.due).toBeGreaterThan(now)
          s = next
        }
        // log4 of the interval in units of the first backoff, plus the first request.
        expect(requests).toBeLessThanOrEqual(2 + Math.ceil(Math.log(interval / 2000) / Math.log(4)))
        expect(s.expected).toBeGreaterThan(expected)
      }),
    )
  })
})

describe('a resumed follow asks from its cursor: never before it (a duplicate), never after it (a gap)', () => {
  const cursor = { version: 1 as const, kind: 'follow' as const, endpoint: 'exchange_ohlcv' as const, query: { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', limit: '1000', start: '2026-01-01T00:00:00.001Z' } }

  test('before any candle of this run, the next request starts at the cursor whatever close is expected', () => {
    const position = new SeriesPosition(cursor)
    for (const expected of [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-01T00:05:00Z'), undefined]) {
      expect(position.liveCursor(undefined, expected).query.start).toBe('2026-01-01T00:00:00.001Z')
    }
    expect(position.liveCursor(Date.parse('2026-01-01T00:03:00Z'), undefined).query.start).toBe('2026-01-01T00:03:00.001Z')
  })

  test('a cursor stored after its last candle up to end is a follow that has ended', () => {
    const position = new SeriesPosition({ ...cursor, query: { ...cursor.query, start: '2026-01-01T00:02:00.001Z', end: '2026-01-01T00:02:00Z' } })
    expect(position.ended).toMatchObject({ reason: 'end' })
  })
})
