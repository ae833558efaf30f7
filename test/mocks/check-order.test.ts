import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { FREE, PRO, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const NOW = '2026-06-01T00:00:00Z'
const ex = (params: Record<string, string | number | undefined>) =>
  `/v1/exchange_ohlcv${qs({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', ...params })}`

describe.each(TRANSPORTS)('order of checks on the candle endpoints via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: NOW })
  })
  afterAll(() => t.close())
  beforeEach(() => t.service.reset())

  const noUsage = () => expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })

  test('1. authentication (401) comes before parameter validation (422)', async () => {
    const res = await t.get('/v1/exchange_ohlcv?limit=0')
    expect(res.status).toBe(401)
    noUsage()
  })

  test('2. parameter validation (422) comes before resolution (404)', async () => {
    const res = await t.get(ex({ exchange: 'nope', limit: 0 }), PRO)
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } },
    ])
    noUsage()
  })

  test('3. resolution (404) comes before the plan (403): unknown exchange, interval, method, or a pair with no series', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      [ex({ exchange: 'nope' }), FREE, "Unknown exchange 'nope'"],
      [ex({ interval: '5m' }), FREE, "Unknown interval '5m'"],
      [ex({ base: 'FOO' }), FREE, "No candles for FOO/USD on exchange 'bitstamp' at interval '1h'"],
      [ex({ exchange: 'ftx', base: 'XRP' }), FREE, "No candles for XRP/USD on exchange 'ftx' at interval '1h'"],
      [`/v1/aggregated_ohlcv${qs({ interval: '1h', base: 'BTC', quote: 'USD', method: 'vwap' })}`, FREE, "Unknown method 'vwap'"],
      [`/v1/aggregated_ohlcv${qs({ interval: '1w', base: 'BTC', quote: 'USD' })}`, FREE, "Unknown interval '1w'"],
      [`/v1/aggregated_ohlcv${qs({ interval: '1h', base: 'USD', quote: 'BTC' })}`, FREE, "No aggregated candles for USD/BTC at interval '1h'"],
    ]
    for (const [path, headers, detail] of cases) {
      const res = await t.get(path, headers)
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ detail })
    }
    noUsage()
  })

  test('4. the plan (403) comes before the rate limit (429)', async () => {
    for (let i = 0; i < 10; i++) expect((await t.get(ex({ limit: 1 }), FREE)).status).toBe(200)
    expect((await t.get(ex({ limit: 1 }), FREE)).status).toBe(429)
    const denied = await t.get(ex({ interval: '1m', limit: 1 }), FREE)
    expect(denied.status).toBe(403)
    expect(t.service.usage().acct_free).toBe(10)
  })

  test('6. only a 200 from a candle endpoint is counted in usage', async () => {
    await t.get(ex({ limit: 3 }), PRO)
    await t.get(`/v1/aggregated_ohlcv${qs({ interval: '1d', base: 'ETH', quote: 'USD', limit: 3 })}`, PRO)
    expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 2, acct_enterprise: 0 })
  })

  test('every error response is JSON with one key, detail', async () => {
    const responses = [
      await t.get(ex({})),
      await t.get(ex({ limit: 'x' }), PRO),
      await t.get(ex({ exchange: 'x' }), PRO),
      await t.get(ex({ interval: '1m' }), FREE),
      await t.get('/v1/nothing'),
      await t.request('POST', '/v1/assets'),
    ]
    for (const res of responses) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(Object.keys(res.body)).toEqual(['detail'])
    }
  })
})
