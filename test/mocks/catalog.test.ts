import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { ENTERPRISE, FREE, PRO, REVOKED, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const NOW = '2026-06-01T12:00:00Z'

describe.each(TRANSPORTS)('catalog endpoints via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: NOW })
  })
  afterAll(() => t.close())
  beforeEach(() => t.service.reset())

  test('every successful response is a bare JSON array: exchanges, ordered by name', async () => {
    const res = await t.get('/v1/exchanges')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(res.body).toEqual([
      { name: 'bitstamp', creation_date: '2011-08-01', closing_date: null },
      { name: 'ftx', creation_date: '2019-05-08', closing_date: '2022-11-11' },
    ])
  })

  test('assets ordered by ticker, at least 10 across CRYPTO, FIAT and STABLECOIN', async () => {
    const res = await t.get('/v1/assets')
    expect(res.status).toBe(200)
    const tickers = res.body.map((a: { ticker: string }) => a.ticker)
    expect(tickers).toEqual([...tickers].sort())
    expect(tickers.length).toBeGreaterThanOrEqual(10)
    expect(new Set(res.body.map((a: { asset_type: string }) => a.asset_type))).toEqual(new Set(['CRYPTO', 'FIAT', 'STABLECOIN']))
  })

  test('exchange_pairs: every pair with at least one candle for that exchange and interval, ordered by base then quote', async () => {
    const res = await t.get(`/v1/exchange_pairs${qs({ exchange: 'bitstamp', interval: '1h' })}`)
    expect(res.status).toBe(200)
    const pairs = res.body.map((p: { base: string; quote: string }) => `${p.base}/${p.quote}`)
    expect(pairs).toEqual(['ADA/EUR', 'BTC/EUR', 'BTC/GBP', 'BTC/USD', 'DOGE/USD', 'ETH/BTC', 'ETH/USD', 'SOL/USDT', 'USDC/USD', 'XRP/USD'])
    const btc = res.body.find((p: { base: string; quote: string }) => p.base === 'BTC' && p.quote === 'USD')
    expect(btc).toEqual({ base: 'BTC', quote: 'USD', first_close_ts: '2015-01-01T01:00:00Z', last_close_ts: '2026-06-01T12:00:00Z' })
  })

  test('a closed exchange: its history stops at its closing_date', async () => {
    const res = await t.get(`/v1/exchange_pairs${qs({ exchange: 'ftx', interval: '1m' })}`)
    expect(res.status).toBe(200)
    expect(res.body.length).toBeGreaterThan(0)
    for (const entry of res.body) expect(entry.last_close_ts).toBe('2022-11-11T00:00:00Z')
  })

  test('the pairs coverage timestamps depend on the filters that scoped the call (interval)', async () => {
    const day = await t.get(`/v1/exchange_pairs${qs({ exchange: 'bitstamp', interval: '1d' })}`)
    const btc = day.body.find((p: { base: string; quote: string }) => p.base === 'BTC' && p.quote === 'USD')
    expect(btc).toEqual({ base: 'BTC', quote: 'USD', first_close_ts: '2015-01-02T00:00:00Z', last_close_ts: '2026-06-01T00:00:00Z' })
  })

  test('aggregated_pairs: every pair with at least one aggregated candle; without method all methods are unioned', async () => {
    const all = await t.get(`/v1/aggregated_pairs${qs({ interval: '1h' })}`)
    const one = await t.get(`/v1/aggregated_pairs${qs({ interval: '1h', method: 'omm_vwap_v1' })}`)
    expect(all.status).toBe(200)
    expect(one.body).toEqual(all.body)
    const pairs = all.body.map((p: { base: string; quote: string }) => `${p.base}/${p.quote}`)
    expect(pairs).toContain('BTC/USDT') // listed on the closed exchange only
    expect(pairs).toEqual([...pairs].sort())
    const btcUsdt = all.body.find((p: { base: string; quote: string }) => p.base === 'BTC' && p.quote === 'USDT')
    expect(btcUsdt.last_close_ts).toBe('2022-11-11T00:00:00Z')
  })

  test('on exchange_pairs and aggregated_pairs, an unknown exchange, interval or method returns 404, not an empty array', async () => {
    for (const [path, detail] of [
      [`/v1/exchange_pairs${qs({ exchange: 'nope', interval: '1h' })}`, "Unknown exchange 'nope'"],
      [`/v1/exchange_pairs${qs({ exchange: 'bitstamp', interval: '5m' })}`, "Unknown interval '5m'"],
      [`/v1/exchange_pairs${qs({ exchange: 'Bitstamp', interval: '1h' })}`, "Unknown exchange 'Bitstamp'"],
      [`/v1/aggregated_pairs${qs({ interval: '1H' })}`, "Unknown interval '1H'"],
      [`/v1/aggregated_pairs${qs({ interval: '1h', method: 'omm_vwap_v2' })}`, "Unknown method 'omm_vwap_v2'"],
    ] as const) {
      const res = await t.get(path)
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ detail })
    }
  })

  test('a required parameter that is left out returns 422 with its issue list', async () => {
    const res = await t.get('/v1/exchange_pairs')
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        { type: 'missing', loc: ['query', 'exchange'], msg: 'Field required', input: null },
        { type: 'missing', loc: ['query', 'interval'], msg: 'Field required', input: null },
      ],
    })
    const agg = await t.get('/v1/aggregated_pairs')
    expect(agg.status).toBe(422)
    expect(agg.body.detail).toEqual([{ type: 'missing', loc: ['query', 'interval'], msg: 'Field required', input: null }])
  })

  test('catalog endpoints ignore the key header entirely and are never counted in usage', async () => {
    const paths = ['/v1/exchanges', '/v1/assets', `/v1/exchange_pairs${qs({ exchange: 'bitstamp', interval: '1d' })}`, `/v1/aggregated_pairs${qs({ interval: '1d' })}`]
    for (const path of paths) {
      const bare = await t.get(path)
      for (const headers of [PRO, FREE, ENTERPRISE, REVOKED, { 'X-API-Key': 'garbage' }, { 'X-API-Key': '' }]) {
        const res = await t.get(path, headers)
        expect(res.status).toBe(200)
        expect(res.body).toEqual(bare.body)
      }
    }
    // and a 404 or 422 on a catalog endpoint is not counted either
    await t.get(`/v1/exchange_pairs${qs({ exchange: 'nope', interval: '1h' })}`, PRO)
    await t.get('/v1/aggregated_pairs', PRO)
    expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })
  })

  test('catalog calls are not rate limited: 30 quick calls all answer 200', async () => {
    for (let i = 0; i < 30; i++) expect((await t.get('/v1/assets', PRO)).status).toBe(200)
  })

  test('unknown query parameters are ignored', async () => {
    const res = await t.get(`/v1/exchanges${qs({ foo: 'bar' })}`)
    expect(res.status).toBe(200)
    const pairs = await t.get(`/v1/exchange_pairs${qs({ exchange: 'ftx', interval: '1d', page: 2 })}`)
    expect(pairs.status).toBe(200)
  })
})
