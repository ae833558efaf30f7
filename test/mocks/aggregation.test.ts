import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ExchangeCandle } from '../../src/schemas/index.js'
import { ommVwapV1 } from '../../mocks/data/aggregation/omm-vwap-v1.js'
import { EXPLICIT_NOW, T0, candle, explicitDataset } from '../support/fixtures.js'
import { ENTERPRISE, TRANSPORTS, qs, type Transport } from '../support/transports.js'
import { walk } from '../support/walk.js'

/** omm_vwap_v1 written out again, independently, as the ground truth of the aggregate. */
function expected(candidates: ExchangeCandle[]) {
  const contributors = candidates.filter((c) => c.flag !== 'outlier_excluded')
  if (contributors.length === 0) return undefined
  const bv = contributors.reduce((s, c) => s + c.base_volume, 0)
  const qv = contributors.reduce((s, c) => s + c.quote_volume, 0)
  const mean = (f: 'open' | 'high' | 'low' | 'close') =>
    bv > 0 ? contributors.reduce((s, c) => s + c[f] * c.base_volume, 0) / bv : contributors.reduce((s, c) => s + c[f], 0) / contributors.length
  return {
    close_ts: candidates[0]!.close_ts,
    open: mean('open'),
    high: mean('high'),
    low: mean('low'),
    close: bv > 0 ? qv / bv : mean('close'),
    base_volume: bv,
    quote_volume: qv,
    exchanges: contributors.map((c) => c.exchange).sort(),
    flag: contributors.length < candidates.length ? 'outlier_excluded' : contributors.some((c) => c.flag === 'outlier') ? 'outlier' : null,
  }
}

describe.each(TRANSPORTS)('aggregated_ohlcv computes omm_vwap_v1 via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ data: explicitDataset(), now: EXPLICIT_NOW, rateLimit: false })
  })
  afterAll(() => t.close())

  test('the aggregated series equals omm_vwap_v1 applied to the exchange candles of every exchange at each close_ts', async () => {
    const all = explicitDataset().candles.filter((c) => c.base === 'BTC')
    const byTs = new Map<string, ExchangeCandle[]>()
    for (const c of all) byTs.set(c.close_ts, [...(byTs.get(c.close_ts) ?? []), c])
    const truth = [...byTs.keys()].sort().map((ts) => expected(byTs.get(ts)!)).filter((c) => c !== undefined)
    const { pages } = await walk(t, '/v1/aggregated_ohlcv', { interval: '1h', base: 'BTC', quote: 'USD', start: new Date(T0).toISOString(), limit: 17 }, ENTERPRISE)
    const got = pages.flat()
    expect(got).toHaveLength(truth.length)
    got.forEach((c: any, i: number) => {
      const want = truth[i]!
      expect(c).toMatchObject({ method: 'omm_vwap_v1', interval: '1h', base: 'BTC', quote: 'USD', close_ts: want.close_ts, exchanges: want.exchanges, flag: want.flag })
      for (const f of ['open', 'high', 'low', 'close', 'base_volume', 'quote_volume'] as const) expect(c[f]).toBeCloseTo(want[f], 9)
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close))
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close))
    })
  })

  test('exchanges lists only the exchanges that contributed to that candle, after outlier exclusion', async () => {
    const res = await t.get(`/v1/aggregated_ohlcv${qs({ interval: '1h', base: 'BTC', quote: 'USD', start: new Date(T0).toISOString(), limit: 15 })}`, ENTERPRISE)
    const at = (h: number) => res.body.find((c: any) => Date.parse(c.close_ts) === T0 + h * 3_600_000)
    expect(at(1).exchanges).toEqual(['alpha', 'beta'])
    expect(at(3).exchanges).toEqual(['alpha']) // beta has an outage at hour 3
    expect(at(5).exchanges).toEqual(['beta']) // alpha has one at hours 5-7
    expect(at(6)).toBeUndefined() // both are out at hour 6: no aggregated candle
    expect(at(10).flag).toBe('outlier') // alpha's candle flagged outlier contributes
    expect(at(11)).toMatchObject({ exchanges: ['beta'], flag: 'outlier_excluded' })
    expect(at(12)).toMatchObject({ exchanges: ['alpha'], flag: 'outlier_excluded' })
  })

  test('a pair with data on one exchange only aggregates to that exchange alone', async () => {
    const res = await t.get(`/v1/aggregated_ohlcv${qs({ interval: '1h', base: 'ETH', quote: 'USD', limit: 3 })}`, ENTERPRISE)
    expect(res.status).toBe(200)
    for (const c of res.body) expect(c.exchanges).toEqual(['alpha'])
  })
})

describe('omm_vwap_v1 edge cases', () => {
  const t = Date.UTC(2024, 0, 1, 1)
  test('no contributors: no aggregated candle at that close_ts', () => {
    expect(ommVwapV1('1h', 'BTC', 'USD', [candle('a', 'BTC/USD', '1h', t, 100, 1, 'outlier_excluded')])).toBeUndefined()
  })

  test('when the base volume sum is 0, close is the mean of the contributors close, open/high/low plain means', () => {
    const a = { ...candle('a', 'BTC/USD', '1h', t, 100, 0), quote_volume: 0 }
    const b = { ...candle('b', 'BTC/USD', '1h', t, 110, 0), quote_volume: 0 }
    expect(ommVwapV1('1h', 'BTC', 'USD', [a, b])).toMatchObject({ close: 105, open: 104, high: 107, low: 103, base_volume: 0, quote_volume: 0, exchanges: ['a', 'b'] })
  })

  test('close is the VWAP: sum(quote_volume) / sum(base_volume); open/high/low are base-volume-weighted means', () => {
    const a = candle('a', 'BTC/USD', '1h', t, 100, 1)
    const b = candle('b', 'BTC/USD', '1h', t, 200, 3)
    const agg = ommVwapV1('1h', 'BTC', 'USD', [b, a])!
    expect(agg.close).toBeCloseTo((100 * 1 + 200 * 3) / 4, 12)
    expect(agg.open).toBeCloseTo((99 * 1 + 199 * 3) / 4, 12)
    expect(agg.exchanges).toEqual(['a', 'b'])
    expect(agg.flag).toBeNull()
  })
})
