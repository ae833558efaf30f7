import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { firstAsk, learn, PUBLISH_MARGIN_MS, retryAsk, shifted, unlearnt, type PublishDelay } from '../../../src/follow/publish-delay.js'

/**
 * A series whose candles become available `delays[i]` ms after their close, polled over a round
 * trip of `rtt` ms (served halfway): what the learnt schedule asks, candle by candle.
 */
function simulate(delays: number[], rtt: number, jitter: () => number = () => 0, clockError: () => number = () => 0) {
  let d: PublishDelay = unlearnt()
  const candles: { requests: number; lagMs: number; firstAsk: number; asks: number[] }[] = []
  for (const delay of delays) {
    let x = firstAsk(d)
    const asks: number[] = []
    let missed: number | undefined
    for (;;) {
      asks.push(x)
      const r = rtt + jitter()
      // The service sees the ask at its offset, off by the follow's clock error (or a late timer).
      if (x + clockError() + r / 2 >= delay) {
        d = learn(d, x + r, missed, r)
        candles.push({ requests: asks.length, lagMs: x + r - delay, firstAsk: asks[0]!, asks })
        break
      }
      missed = x
      x = retryAsk(d, x)
    }
  }
  return candles
}

const perCandle = (cs: { requests: number }[]) => cs.reduce((n, c) => n + c.requests, 0) / cs.length
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!

describe('the learnt publish delay: polls just after candles become available, about one request per interval', () => {
  test.each([
    [0, 20],
    [1500, 20],
    [1500, 250],
    [20_000, 100],
  ])('a delay of %i ms over a %i ms round trip: after a few candles, lag after availability <= 300 ms + a round trip at <= 1.05 requests', (delay, rtt) => {
    const candles = simulate(Array(300).fill(delay), rtt)
    const steady = candles.slice(10)
    expect(perCandle(steady)).toBeLessThanOrEqual(1.05)
    expect(median(steady.map((c) => c.lagMs))).toBeLessThanOrEqual(300 + rtt)
    // Learnt within a few candles.
    expect(candles.slice(5, 10).every((c) => c.lagMs <= 300 + 2 * rtt)).toBe(true)
  })

  test('property: never asks before the close, and a candle never costs more than a bounded number of requests', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 400 }), (delays, rtt) => {
        for (const c of simulate(delays, rtt)) {
          expect(Math.min(...c.asks)).toBeGreaterThanOrEqual(PUBLISH_MARGIN_MS / 2)
          expect(c.requests).toBeLessThanOrEqual(20)
          // Each try after a miss is later than it, by at least half the margin.
          for (let i = 1; i < c.asks.length; i++) expect(c.asks[i]! - c.asks[i - 1]!).toBeGreaterThanOrEqual(PUBLISH_MARGIN_MS / 2)
        }
      }),
    )
  })

  test('a delay that shrinks is noticed by the probes, one that grows at its first miss; one late candle is forgotten in a few candles', () => {
    const delays = Array.from({ length: 400 }, (_, i) => (i < 100 ? 1500 : i < 250 ? 200 : i === 300 ? 40_000 : 3000))
    const candles = simulate(delays, 20)
    // Shrunk to 200 ms at candle 100: back under 300 ms of lag within the next 80 candles (a probe every 60).
    expect(candles.slice(180, 250).every((c) => c.lagMs <= 320)).toBe(true)
    // Grown to 3 s at 250: within 10 candles.
    expect(candles.slice(260, 300).every((c) => c.lagMs <= 320)).toBe(true)
    // Candle 300 came 40 s late: within 20 candles the lag is small again.
    expect(candles.slice(320, 400).every((c) => c.lagMs <= 320)).toBe(true)
    expect(perCandle(candles.slice(320))).toBeLessThanOrEqual(1.05)
  })

  test.each([
    [0, -40],
    [1500, -40],
    [1500, 40],
    [20_000, -40],
    [20_000, 40],
  ])('a delay of %i ms, a clock off by %i ms and timers up to 40 ms late: no miss once learnt but the probes (one in 60 candles)', (delay, offset) => {
    let seed = 11
    const late = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 40
    const candles = simulate(Array(200).fill(delay), 20, () => 0, () => offset + late())
    expect(candles.slice(10).filter((c) => c.requests > 1).length).toBeLessThanOrEqual(4)
    expect(perCandle(candles.slice(10))).toBeLessThanOrEqual(1.05)
  })

  test("a correction of the clock's reading moves what was learnt with it, but never the close itself (a low end of 0)", () => {
    const learnt: PublishDelay = { lo: 1400, hi: 1620, clean: 3, probeAfter: 60, rtt: 20 }
    expect(shifted(learnt, 250)).toMatchObject({ lo: 1650, hi: 1870, clean: 3 })
    expect(shifted(learnt, -1500)).toMatchObject({ lo: 0, hi: 120 })
    // Delay 0 over an estimate that ran 250 ms behind: the found candle moves, the close does not.
    expect(shifted({ lo: 0, hi: 120, clean: 3, probeAfter: 60, rtt: 20 }, 250)).toMatchObject({ lo: 0, hi: 370 })
    expect(firstAsk(shifted({ lo: 0, hi: 120, clean: 3, probeAfter: 60, rtt: 20 }, 250))).toBeLessThan(200)
  })

  test('jittery round trips (20-220 ms): still <= 1.05 requests per candle in steady state', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 200
    const candles = simulate(Array(400).fill(1500), 20, random)
    expect(perCandle(candles.slice(20))).toBeLessThanOrEqual(1.05)
  })
})
