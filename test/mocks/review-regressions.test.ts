import { describe, expect, test } from 'vitest'
import { FixtureError, createMockService } from '../../mocks/index.js'
import { startMockServer } from '../../mocks/server/index.js'
import { T0, candle, explicitDataset } from '../support/fixtures.js'
import { viaMsw } from '../support/transports.js'

const KEY = { 'X-API-Key': 'demo-enterprise-key' }

describe('fixture keys are secrets: every bad input gets a clear error, and no key is ever quoted', () => {
  test('a key given twice is a FixtureError at once, naming only a hint', () => {
    const make = () => createMockService({ keys: [{ key: 'sk_live_twice_123', account: 'acct_free' }, { key: 'sk_live_twice_123', account: 'acct_pro' }] })
    expect(make).toThrow(FixtureError)
    expect(make).toThrow(/keys\[1\]: the key sk_l… appears twice/)
    expect(make).not.toThrow(/sk_live_twice_123/)
  })

  test('a bad key record is quoted with its key redacted', () => {
    const make = () => createMockService({ keys: [{ key: 'sk_live_VERY_SECRET', account: 42 as unknown as string }] })
    expect(make).toThrow(/keys\[0\]\.account: expected string, got number/)
    expect(make).not.toThrow(/VERY_SECRET/)
  })

  test('a short key has no hint at all, so a hint is never the whole key', async () => {
    const service = createMockService()
    await service.keys.add('abcd', 'acct_pro')
    expect(service.keys.list().at(-1)).toEqual({ hint: '…', account: 'acct_pro', revoked: false })
  })
})

describe('values are matched exactly (D4), whatever characters they hold', () => {
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

describe('explicit fixtures respect the exchange lifetime', () => {
  test('a candle after closing_date or before creation_date names the record', () => {
    const late = explicitDataset()
    late.candles.push(candle('beta', 'ETH/USD', '1h', Date.UTC(2024, 0, 5, 1), 10))
    expect(() => createMockService({ data: late })).toThrow(/closes after the exchange's closing_date 2024-01-05/)
    const early = explicitDataset()
    early.candles.push(candle('beta', 'ETH/USD', '1d', Date.UTC(2020, 0, 1), 10))
    expect(() => createMockService({ data: early })).toThrow(/opens before the exchange's creation_date 2020-01-01/)
  })
})

describe('faults and clocks refuse what they cannot represent', () => {
  test('a fault status outside 200..599, or one without a body, is refused when added', () => {
    const service = createMockService()
    for (const status of [99, 600, 204, 304, 503.5]) expect(() => service.faults.add({ status })).toThrow(/Fault\.status/)
    expect(() => service.faults.add({ status: 200, body: [{ not: 'a candle' }] })).not.toThrow()
  })

  test('a clock beyond what a Date can hold is refused', () => {
    const service = createMockService()
    expect(() => service.clock.set(8.7e15)).toThrow(/not an instant a Date can hold/)
    expect(() => createMockService({ now: Number.NaN })).toThrow(TypeError)
  })
})

describe('the /_mock state endpoints refuse cross-origin browser requests', () => {
  test('a POST /_mock/reset carrying an Origin header is 403 and changes nothing', async () => {
    const server = await startMockServer({ port: 0 })
    try {
      await fetch(`${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=1`, { headers: KEY })
      const res = await fetch(`${server.url}/_mock/reset`, { method: 'POST', headers: { Origin: 'http://evil.test' } })
      expect(res.status).toBe(403)
      expect(server.service.usage().acct_enterprise).toBe(1)
    } finally {
      await server.close()
    }
  })
})
