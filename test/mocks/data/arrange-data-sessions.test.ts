import { describe, expect, test } from 'vitest'
import { DataError, createMockService, type MockService } from '../../../mocks/index.js'
import { setupMockService } from '../../../mocks/node/index.js'
import { startMockServer } from '../../../mocks/server/index.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'

const NOW = '2026-06-01T00:00:00Z'
const URL_1H = '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2026-05-01T10:00:00Z&limit=1'

const candle = (close: number): ExchangeCandle => ({
  exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', close_ts: '2026-05-01T10:00:00Z',
  open: 100, high: 110, low: 90, close, base_volume: 2, quote_volume: 200, source_provider: 'test', source_channel: 'test', flag: null,
})

async function closeOf(service: MockService, url = URL_1H, key = 'demo-enterprise-key'): Promise<number | number> {
  const res = await service.handle({ method: 'GET', url, headers: { 'x-api-key': key } })
  return res.status === 200 ? (res.body as ExchangeCandle[])[0]!.close : -res.status
}

describe('sessions are isolated: what one session arranges no other session, nor the root, sees', () => {
  test('a session\'s candles stay in the session; a new session starts from the starting data', async () => {
    const service = createMockService({ now: NOW })
    const original = await closeOf(service)
    service.session('a').data.putCandles([candle(101)])
    service.data.putCandles([candle(102)])
    expect(await closeOf(service, `/_sessions/a${URL_1H}`)).toBe(101)
    expect(await closeOf(service)).toBe(102)
    expect(await closeOf(service, `/_sessions/b${URL_1H}`)).toBe(original)
    await service.session('a').reset()
    expect(await closeOf(service, `/_sessions/a${URL_1H}`)).toBe(original)
    expect(await closeOf(service)).toBe(102)
  })

  test('exchanges, assets, keys and plans are per session too', async () => {
    const service = createMockService({ now: NOW })
    const a = service.session('a')
    a.data.putAsset({ name: 'Pepe', asset_type: 'CRYPTO', ticker: 'PEPE' })
    a.plans.put({ id: 'tiny', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
    await a.keys.put({ key: 'tiny-key-123', account: 'acct_tiny', plan: 'tiny' })
    const tickers = async (s: MockService, url: string) => ((await s.handle({ method: 'GET', url })).body as { ticker: string }[]).map((x) => x.ticker)
    expect(await tickers(service, '/_sessions/a/v1/assets')).toContain('PEPE')
    expect(await tickers(service, '/v1/assets')).not.toContain('PEPE')
    expect(await closeOf(service, `/_sessions/a${URL_1H}`, 'tiny-key-123')).toBe(-403)
    expect(await closeOf(service, URL_1H, 'tiny-key-123')).toBe(-401)
    expect(service.plans.list().map((p) => p.id)).toEqual(['free', 'pro', 'enterprise'])
    expect(a.plans.list().map((p) => p.id)).toEqual(['free', 'pro', 'enterprise', 'tiny'])
    expect(a.usage()).toHaveProperty('acct_tiny', 0)
    expect(service.usage()).not.toHaveProperty('acct_tiny')
  })

  test('service.reset() restores data, keys and plans: afterEach(() => mock.reset()) gives each test the starting world', async () => {
    const service = createMockService({ now: NOW })
    const original = await closeOf(service)
    service.data.putCandles([candle(101)])
    service.plans.put({ id: 'tiny', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
    await service.keys.put({ key: 'tiny-key-123', account: 'acct_tiny', plan: 'tiny' })
    await service.keys.put({ key: 'demo-free-key', account: 'acct_free', plan: 'enterprise' })
    await service.reset()
    expect(await closeOf(service)).toBe(original)
    expect(await closeOf(service, URL_1H, 'tiny-key-123')).toBe(-401)
    expect(await closeOf(service, URL_1H, 'demo-free-key')).toBe(-403)
    expect(service.plans.list().map((p) => p.id)).toEqual(['free', 'pro', 'enterprise'])
    expect(Object.keys(service.usage())).toEqual(['acct_free', 'acct_pro', 'acct_enterprise'])
  })
})

describe('keys.put and plans: accounts and custom history depths per service', () => {
  test('keys.put creates the account on its plan when new; plan moves an existing account; a present key is re-pointed', async () => {
    const service = createMockService({ now: NOW })
    await service.keys.put({ key: 'new-key-0001', account: 'acct_new', plan: 'free' })
    expect(await closeOf(service, URL_1H, 'new-key-0001')).toBe(-403) // free: 1h P30D, start is 31 days back
    await service.keys.put({ key: 'new-key-0001', account: 'acct_new', plan: 'enterprise' })
    expect(await closeOf(service, URL_1H, 'new-key-0001')).toBeGreaterThan(0)
    await service.keys.put({ key: 'demo-revoked-key', account: 'acct_new' })
    expect(await closeOf(service, URL_1H, 'demo-revoked-key')).toBeGreaterThan(0)
    expect(service.keys.list().filter((k) => k.account === 'acct_new')).toEqual([
      { hint: 'demo…', account: 'acct_new', revoked: false },
      { hint: 'new-…', account: 'acct_new', revoked: false },
    ])
  })

  test('a custom plan sets the history depth per endpoint and interval', async () => {
    const service = createMockService({ now: NOW })
    service.plans.put({ id: 'six-hours', endpoints: { exchange_ohlcv: { '1h': 'PT6H' } } })
    await service.keys.put({ key: 'six-hours-key', account: 'acct_six', plan: 'six-hours' })
    const page = await service.handle({ method: 'GET', url: '/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD', headers: { 'x-api-key': 'six-hours-key' } })
    expect((page.body as ExchangeCandle[]).map((c) => c.close_ts)).toEqual(['2026-05-31T18:00:00Z', '2026-05-31T19:00:00Z', '2026-05-31T20:00:00Z', '2026-05-31T21:00:00Z', '2026-05-31T22:00:00Z', '2026-05-31T23:00:00Z', '2026-06-01T00:00:00Z'])
    const agg = await service.handle({ method: 'GET', url: '/v1/aggregated_ohlcv?interval=1h&base=BTC&quote=USD', headers: { 'x-api-key': 'six-hours-key' } })
    expect(agg.status).toBe(403)
  })

  test('secrets: keys never appear in errors or listings, only their hint', async () => {
    const service = createMockService({ now: NOW })
    const secret = ' super-secret-key-42'
    const error = await service.keys.put({ key: secret, account: 'acct_nope' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DataError)
    expect((error as DataError).message).not.toContain('secret')
    expect(JSON.stringify((error as DataError).issues)).not.toContain('secret')
    expect((error as DataError).issues.map((i) => i.field)).toEqual(['key', 'plan'])
    await service.keys.put({ key: 'super-secret-key-42', account: 'acct_pro' })
    expect(JSON.stringify(service.keys.list())).not.toContain('secret')
  })

  test('bad plans and key puts are refused with a DataError and change nothing', async () => {
    const service = createMockService({ now: NOW })
    expect(() => service.plans.put({ id: 'bad', endpoints: { exchange_ohlcv: { '1h': 'P1Y' } } })).toThrow(DataError)
    expect(() => service.plans.put({ id: '', endpoints: {} })).toThrow(/plan\.id/)
    await expect(service.keys.put({ key: 'k-000000001', account: 'acct_pro', plan: 'nope' })).rejects.toThrow(/unknown plan "nope"/)
    expect(service.plans.list().map((p) => p.id)).toEqual(['free', 'pro', 'enterprise'])
    expect(service.keys.list()).toHaveLength(5)
  })
})

describe('the helpers pass data through to service.data', () => {
  test('setupMockService: mock.data is the service\'s data', async () => {
    const mock = setupMockService({ now: NOW })
    expect(mock.data).toBe(mock.service.data)
    mock.data.putCandles([candle(101)])
    expect(await closeOf(mock.service)).toBe(101)
    await mock.reset()
    expect(await closeOf(mock.service)).not.toBe(101)
  })

  test('startMockServer: server.data is the service\'s data, served over HTTP', async () => {
    const server = await startMockServer({ now: NOW })
    try {
      expect(server.data).toBe(server.service.data)
      server.data.putCandles([candle(101)])
      const res = await fetch(`${server.url}${URL_1H}`, { headers: { 'x-api-key': 'demo-enterprise-key' } })
      expect(((await res.json()) as ExchangeCandle[])[0]!.close).toBe(101)
    } finally {
      await server.close()
    }
  })
})
