import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { EXPLICIT_NOW, HOUR, T0, explicitDataset } from '../support/fixtures.js'
import { SDK_TARGETS, collect, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const ALPHA = { exchange: 'alpha', interval: '1h', base: 'BTC', quote: 'USD' } as const
const iso = (t: number) => new Date(t).toISOString()
const ts = (hour: number) => iso(T0 + hour * HOUR).replace('.000Z', 'Z')
// alpha BTC/USD 1h holds hours 1..120 of T0 except 5-7, 20, 41-42, 99 (test/support/fixtures.ts)

describe.each(SDK_TARGETS)('a walk reports its gaps: the close times its range should hold that the service has no candle for, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  })
  afterAll(() => target.close())
  const client = () => target.client({ apiKey: KEY, rateLimit: false })

  test.each([1, 3, 1000])('candle walk over a range with gaps, a missing tail counted once complete (limit %i)', async (limit) => {
    const walk = client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0 + 2 * HOUR), end: iso(T0 + 130 * HOUR), limit })
    const candles = await collect(walk)
    const report = walk.gaps()
    expect(report).toEqual({
      interval: '1h',
      from: ts(2),
      to: ts(130),
      expected: 129,
      received: candles.length,
      missing: 129 - candles.length,
      gaps: [
        { from: ts(5), to: ts(7), missing: 3 },
        { from: ts(20), to: ts(20), missing: 1 },
        { from: ts(41), to: ts(42), missing: 2 },
        { from: ts(99), to: ts(99), missing: 1 },
        { from: ts(121), to: ts(130), missing: 10 }, // after the last candle, within end
      ],
      complete: true,
    })
    expect(candles.length).toBe(129 - 17)
  })

  test('page walk, start off the grid rounded up; without end the report stops at the last candle', async () => {
    const walk = client().exchangeOhlcvPages({ ...ALPHA, start: iso(T0 + 3 * HOUR + 1), limit: 7 }, { concurrency: 1 })
    await collect(walk)
    const report = walk.gaps()
    expect(report).toMatchObject({ from: ts(4), to: ts(120), expected: 117, received: 117 - 7, missing: 7, complete: true })
    expect(report.gaps.map((g) => [g.from, g.missing])).toEqual([[ts(5), 3], [ts(20), 1], [ts(41), 2], [ts(99), 1]])
  })

  test.each([true, false])('page walk over a range with gaps, pages without a gap counted whole: the same report with validate: %s', async (validate) => {
    // limit 3: most pages hold no gap (counted from their ends when validated), some hold one.
    const walk = target.client({ apiKey: KEY, rateLimit: false, validate }).exchangeOhlcvPages({ ...ALPHA, start: iso(T0), end: iso(T0 + 130 * HOUR), limit: 3 })
    const pages = await collect(walk)
    expect(walk.gaps()).toMatchObject({ from: ts(0), to: ts(130), expected: 131, received: pages.reduce((n, p) => n + p.candles.length, 0), missing: 131 - 113, complete: true })
    expect(walk.gaps().gaps.map((g) => [g.from, g.to, g.missing])).toEqual([
      [ts(0), ts(0), 1],
      [ts(5), ts(7), 3],
      [ts(20), ts(20), 1],
      [ts(41), ts(42), 2],
      [ts(99), ts(99), 1],
      [ts(121), ts(130), 10],
    ])
  })

  test('a walk left early reports up to the last candle it yielded, complete: false', async () => {
    const walk = client().exchangeOhlcvCandles({ ...ALPHA, start: iso(T0), end: iso(T0 + 130 * HOUR), limit: 10 })
    for await (const c of walk) if (c.close_ts === ts(30)) break
    expect(walk.gaps()).toMatchObject({ from: ts(0), to: ts(30), expected: 31, received: 31 - 5, complete: false })
    expect(walk.gaps().gaps).toEqual([
      { from: ts(0), to: ts(0), missing: 1 },
      { from: ts(5), to: ts(7), missing: 3 },
      { from: ts(20), to: ts(20), missing: 1 },
    ])
  })

  test('gaps() of a backward walk is a clear error', () => {
    expect(() => client().exchangeOhlcvCandles(ALPHA).gaps()).toThrow('gaps() needs a forward walk (one with start)')
  })
})
