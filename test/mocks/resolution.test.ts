import { describe, expect, test } from 'vitest'
import { T0, candle } from '../support/fixtures.js'
import { viaMsw } from '../support/transports.js'

const KEY = { 'X-API-Key': 'demo-enterprise-key' }

describe('values are matched exactly, whatever characters they hold', () => {
  test('tickers containing "/" do not collide: A/B + C is not A + B/C', async () => {
    const at = (pair: string) => candle('ex|1', pair, '1h', T0 + 3_600_000, 10)
    const data = {
      exchanges: [{ name: 'ex|1', creation_date: '2020-01-01', closing_date: null }],
      assets: ['A', 'B', 'C', 'A/B', 'B/C'].map((ticker) => ({ name: ticker, asset_type: 'CRYPTO', ticker })),
      candles: [] as ReturnType<typeof candle>[],
    }
    const ab = { ...at('A/B'), base: 'A/B', quote: 'C' }
    const bc = { ...at('A'), base: 'A', quote: 'B/C' }
    data.candles.push(ab, { ...bc, close: 11, high: 12 })
    const t = await viaMsw({ data, now: T0 + 10 * 3_600_000 })
    const pairs = await t.get('/v1/exchange_pairs?exchange=ex%7C1&interval=1h')
    expect(pairs.body.map((p: { base: string; quote: string }) => [p.base, p.quote])).toEqual([['A', 'B/C'], ['A/B', 'C']])
    const res = await t.get('/v1/exchange_ohlcv?exchange=ex%7C1&interval=1h&base=A%2FB&quote=C', KEY)
    expect(res.body).toEqual([ab])
  })
})

describe('a pair with no candle yet has no series: 404, not counted', () => {
  test('BTC/GBP is listed 2025-01-06; asked for on 2025-01-01 it answers 404 like a pair that does not exist', async () => {
    const t = await viaMsw({ now: '2025-01-01T00:00:00Z' })
    const res = await t.get('/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=GBP', KEY)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ detail: "No candles for BTC/GBP on exchange 'bitstamp' at interval '1h'" })
    expect((await t.get('/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=GBP', KEY)).status).toBe(404)
    expect(t.service.usage().acct_enterprise).toBe(0)
    t.service.clock.set('2025-01-07T00:00:00Z')
    expect((await t.get('/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=GBP', KEY)).status).toBe(200)
  })
})
