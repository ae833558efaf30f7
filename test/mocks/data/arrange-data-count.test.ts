import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { createMockService } from '../../../mocks/index.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'

const HOUR = 60_000 // a step of the 1m grid
const T0 = Date.UTC(2024, 9, 7, 8) // the default data has an outage from 08:15 to 08:52
const OUTAGE_FROM = Date.UTC(2024, 9, 7, 8, 15)
const OUTAGE_TO = Date.UTC(2024, 9, 7, 8, 52)
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

describe('arranged data over a procedural series with outages: walks and counts match a model of the changes', () => {
  test('pages forwards and backwards hold exactly the modelled candles, and removeCandles counts them, after any sequence of puts, removals and generated ranges', async () => {
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
        // The model: which close times hold a candle, and whether it is a put one.
        const model = new Map<number, string>()
        for (let h = 0; h <= 96; h++) {
          const t = T0 + h * HOUR
          if (!(t >= OUTAGE_FROM && t < OUTAGE_TO)) model.set(t, 'market-candles-sim')
        }
        for (const o of ops) {
          if (o.kind === 'put') for (const h of o.hours) model.set(T0 + h * HOUR, 'test')
          else for (let h = o.from; h <= o.to; h++) o.kind === 'remove' ? model.delete(T0 + h * HOUR) : model.set(T0 + h * HOUR, 'market-candles-sim')
        }
        const expected = [...model].filter(([t]) => t >= from && t <= to).sort(([x], [y]) => x - y).map(([t, source]) => `${iso(t)} ${source}`)
        const get = async (q: string) => {
          const res = await service.handle({ method: 'GET', url: `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&${q}&limit=1000`, headers: { 'x-api-key': 'demo-enterprise-key' } })
          return (res.body as ExchangeCandle[]).filter((c) => Date.parse(c.close_ts) >= from).map((c) => `${c.close_ts} ${c.source_provider}`)
        }
        expect(await get(`start=${iso(from)}&end=${iso(to)}`)).toEqual(expected)
        expect(await get(`end=${iso(to)}`)).toEqual(expected)
        expect(service.data.removeCandles({ ...data, from, to })).toEqual({ candles: expected.length })
      }),
      { numRuns: 150 },
    )
  })
})

describe('arranged data over explicit fixtures (rows of your own)', () => {
  test('puts and removals lay over the fixture rows; removeCandles counts the rows it drops', async () => {
    const rows = [0, 1, 2, 3, 4, 5].map((h) => ({ ...candle(Date.UTC(2024, 0, 1, h + 1)), interval: '1h' }))
    const service = createMockService({
      now: '2026-01-01T00:00:00Z',
      data: { exchanges: [{ name: 'bitstamp', creation_date: '2020-01-01', closing_date: null }], assets: [{ name: 'Bitcoin', asset_type: 'CRYPTO', ticker: 'BTC' }, { name: 'US Dollar', asset_type: 'FIAT', ticker: 'USD' }], candles: rows },
    })
    service.data.putCandles([{ ...candle(Date.UTC(2024, 0, 1, 3)), interval: '1h', close: 104 }, { ...candle(Date.UTC(2024, 0, 1, 9)), interval: '1h' }])
    const sel = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' }
    // 02:00..05:00 holds the rows at 02, 03 (put over a row), 04, 05: four candles.
    expect(service.data.removeCandles({ ...sel, from: '2024-01-01T02:00:00Z', to: '2024-01-01T05:00:00Z' })).toEqual({ candles: 4 })
    const page = await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2024-01-01', headers: { 'x-api-key': 'demo-enterprise-key' } })
    expect((page.body as ExchangeCandle[]).map((c) => c.close_ts)).toEqual(['2024-01-01T01:00:00Z', '2024-01-01T06:00:00Z', '2024-01-01T09:00:00Z'])
    expect(service.data.removeCandles(sel)).toEqual({ candles: 3 })
  })
})

describe('aggregated removals count what they remove, from the members alone', () => {
  const flag = fc.constantFrom(null, 'outlier', 'outlier_excluded')
  const exchangeOp = fc.oneof(
    fc.record({ kind: fc.constant('put' as const), exchange: fc.constantFrom('bitstamp', 'kraken'), rows: fc.uniqueArray(fc.record({ hour, flag }), { maxLength: 8, selector: (r) => r.hour }) }),
    fc.record({ kind: fc.constant('remove' as const), exchange: fc.constantFrom('bitstamp', 'kraken'), from: hour, to: hour }),
    fc.record({ kind: fc.constant('generate' as const), exchange: fc.constantFrom('bitstamp', 'kraken'), from: hour, to: hour }),
    fc.record({ kind: fc.constant('aggregated-put' as const), hours: fc.uniqueArray(hour, { maxLength: 4 }) }),
  )

  test('the count equals the aggregated candles a page walk sees, after any arrangement of two exchanges (outlier_excluded candidates included)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchangeOp, { maxLength: 6 }), hour, hour, async (ops, a, b) => {
        const service = createMockService({ now: '2026-01-01T00:00:00Z' })
        service.data.putExchange({ name: 'kraken', creation_date: '2013-09-10', closing_date: null })
        const pair = { interval: '1m', base: 'BTC', quote: 'USD' }
        for (const o of ops) {
          const lo = 'from' in o ? Math.min(o.from, o.to) : 0
          const hi = 'from' in o ? Math.max(o.from, o.to) : 0
          if (o.kind === 'put') service.data.putCandles(o.rows.map((r) => ({ ...candle(T0 + r.hour * HOUR), exchange: o.exchange, flag: r.flag })))
          else if (o.kind === 'remove') service.data.removeCandles({ ...pair, exchange: o.exchange, from: T0 + lo * HOUR, to: T0 + hi * HOUR })
          else if (o.kind === 'generate') service.data.generate({ ...pair, exchange: o.exchange, from: T0 + lo * HOUR, to: T0 + hi * HOUR, seed: 5 })
          else {
            const { exchange: _, source_provider: __, source_channel: ___, ...rest } = candle(0)
            service.data.putCandles(o.hours.map((h) => ({ ...rest, close_ts: iso(T0 + h * HOUR), method: 'omm_vwap_v1', exchanges: ['bitstamp'] })))
          }
        }
        const [from, to] = [T0 + Math.min(a, b) * HOUR, T0 + Math.max(a, b) * HOUR]
        const page = await service.handle({ method: 'GET', url: `/v1/aggregated_ohlcv?interval=1m&base=BTC&quote=USD&start=${iso(from)}&end=${iso(to)}&limit=1000`, headers: { 'x-api-key': 'demo-enterprise-key' } })
        const seen = (page.body as unknown[]).length
        expect(service.data.removeCandles({ aggregated: true, ...pair, from, to })).toEqual({ candles: seen })
        const after = await service.handle({ method: 'GET', url: `/v1/aggregated_ohlcv?interval=1m&base=BTC&quote=USD&start=${iso(from)}&end=${iso(to)}&limit=1000`, headers: { 'x-api-key': 'demo-enterprise-key' } })
        expect(after.status === 404 || (after.body as unknown[]).length === 0).toBe(true)
      }),
      { numRuns: 150 },
    )
  })
})
