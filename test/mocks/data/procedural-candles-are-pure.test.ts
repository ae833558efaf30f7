import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { candleModel, type PairModel } from '../../../mocks/data/procedural/candle-model.js'
import { INTERVALS, INTERVAL_MS, type ExchangeCandle, type KnownInterval } from '../../../src/schemas/index.js'

// The model keeps its last few prices to compute each one once per walk. These tests prove the
// memo is invisible: a candle is the same whatever was asked before it.

const PAIRS: readonly (readonly [exchange: string, pair: PairModel])[] = [
  ['bitstamp', { base: 'BTC', quote: 'USD', price: 30_000, volatility: 1, volumePerMinute: 4 }],
  ['bitstamp', { base: 'ETH', quote: 'BTC', price: 0.06, volatility: 0.7, volumePerMinute: 12 }],
  ['ftx', { base: 'USDC', quote: 'USD', price: 1, volatility: 0.01, volumePerMinute: 20_000 }],
]
const FROM = Date.UTC(2015, 11, 31, 22) // a run that crosses a UTC midnight at every interval
const COUNT = 400

/** The grid instants of one run, oldest first. */
const grid = (interval: KnownInterval, from = FROM, count = COUNT) =>
  Array.from({ length: count }, (_, i) => Math.ceil(from / INTERVAL_MS[interval]) * INTERVAL_MS[interval] + i * INTERVAL_MS[interval])

/** Ground truth: a fresh model per candle, so nothing is ever reused. */
const fresh = (exchange: string, pair: PairModel, interval: KnownInterval, t: number): ExchangeCandle => candleModel(exchange, pair, interval)(t)

/** One model asked for `order`, answers keyed by t. */
function produce(exchange: string, pair: PairModel, interval: KnownInterval, order: readonly number[]): Map<number, ExchangeCandle> {
  const candleAt = candleModel(exchange, pair, interval)
  return new Map(order.map((t) => [t, candleAt(t)]))
}

describe.each(PAIRS)('candleModel(%s, %o) is a pure function of t, whatever the call order', (exchange, pair) => {
  test.each(INTERVALS)('ascending, descending and shuffled walks at %s give the same candles as fresh models', (interval) => {
    const ts = grid(interval)
    const truth = new Map(ts.map((t) => [t, fresh(exchange, pair, interval, t)]))
    const ascending = produce(exchange, pair, interval, ts)
    const descending = produce(exchange, pair, interval, [...ts].reverse())
    // Deterministic shuffle (Fisher-Yates on a fixed LCG), so a failure replays.
    const shuffled = [...ts]
    let seed = 12345
    for (let i = shuffled.length - 1; i > 0; i--) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      const j = seed % (i + 1)
      ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
    }
    const random = produce(exchange, pair, interval, shuffled)
    for (const t of ts) {
      expect(ascending.get(t), `ascending at ${t}`).toStrictEqual(truth.get(t))
      expect(descending.get(t), `descending at ${t}`).toStrictEqual(truth.get(t))
      expect(random.get(t), `shuffled at ${t}`).toStrictEqual(truth.get(t))
    }
    // Each candle opens at the previous candle's close (the identity the memo relies on).
    for (let i = 1; i < ts.length; i++) expect(truth.get(ts[i]!)!.open).toBe(truth.get(ts[i - 1]!)!.close)
  })
})

test('any sequence of requests, with repeats, jumps and both directions, gives fresh-model candles (property)', () => {
  const [exchange, pair] = PAIRS[0]!
  const step = INTERVAL_MS['1m']
  const request = fc.oneof(
    fc.integer({ min: 0, max: 30 }), // near the previous request (walks, repeats, small jumps)
    fc.integer({ min: -30, max: -1 }),
    fc.integer({ min: -5_000_000, max: 5_000_000 }), // anywhere in ~10 years
  )
  fc.assert(
    fc.property(fc.array(request, { minLength: 1, maxLength: 60 }), (moves) => {
      const candleAt = candleModel(exchange, pair, '1m')
      let t = Date.UTC(2020, 0, 1)
      for (const move of moves) {
        t += move * step
        expect(candleAt(t)).toStrictEqual(fresh(exchange, pair, '1m', t))
      }
    }),
    { numRuns: 300 },
  )
})
