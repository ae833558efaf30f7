import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { createMockService } from '../../mocks/index.js'
import type { ExchangeCandle } from '../../src/schemas/index.js'

const HOUR = 60_000 // a step of the 1m grid
const T0 = Date.UTC(2024, 9, 7, 8) // the default data has an outage from 08:15 to 08:52
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')
const candle = (t: number): ExchangeCandle => ({
  exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', close_ts: iso(t),
  open: 100, high: 110, low: 90, close: 105, base_volume: 2, quote_volume: 200, source_provider: 'test', source_channel: 'test', flag: null,
})

type Op = { kind: 'put'; hours: number[] } | { kind: 'remove'; from: number; to: number } | { kind: 'generate'; from: number; to: number }
const hour = fc.integer({ min: 0, max: 96 })
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), hours: fc.uniqueArray(hour, { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('remove' as const), from: hour, to: hour }).map((o) => ({ ...o, from: Math.min(o.from, o.to), to: Math.max(o.from, o.to) })),
  fc.record({ kind: fc.constant('generate' as const), from: hour, to: hour }).map((o) => ({ ...o, from: Math.min(o.from, o.to), to: Math.max(o.from, o.to) })),
)

describe('removeCandles counts what it removes: the count without a walk equals the candles a page walk sees', () => {
  test('over any sequence of puts, removals and generated ranges on a procedural series with outages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 6 }), hour, hour, async (ops, a, b) => {
        const service = createMockService({ now: '2026-01-01T00:00:00Z' })
        const data = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' }
        for (const o of ops) {
          if (o.kind === 'put') service.data.putCandles(o.hours.map((h) => candle(T0 + h * HOUR)))
          else if (o.kind === 'remove') service.data.removeCandles({ ...data, from: T0 + o.from * HOUR, to: T0 + o.to * HOUR })
          else service.data.generate({ ...data, from: T0 + o.from * HOUR, to: T0 + o.to * HOUR, seed: 3 })
        }
        const [from, to] = [T0 + Math.min(a, b) * HOUR, T0 + Math.max(a, b) * HOUR]
        const page = await service.handle({ method: 'GET', url: `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&start=${iso(from)}&end=${iso(to)}&limit=1000`, headers: { 'x-api-key': 'demo-enterprise-key' } })
        const seen = (page.body as ExchangeCandle[]).length
        expect(service.data.removeCandles({ ...data, from, to })).toEqual({ candles: seen })
      }),
      { numRuns: 150 },
    )
  })
})
