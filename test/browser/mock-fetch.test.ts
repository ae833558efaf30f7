import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { setupMockService } from '../../mocks/node/index.js'
import { APIConnectionError, createClient } from '../../src/index.js'

const BASE = 'https://api.mock-fetch.test'

describe("setupMockService's fetch: the handlers' answers without MSW's network interception", () => {
  const mock = setupMockService({ baseUrl: BASE, now: '2026-06-01T00:00:00Z' })
  const client = (apiKey?: string) => createClient({ baseUrl: BASE, apiKey, fetch: mock.fetch, retry: false, rateLimit: false })

  test('answers without listen(), as the handlers do (status, headers, body)', async () => {
    const candles = await client('demo-pro-key').exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 3 })
    expect(candles.map((c) => c.close_ts)).toEqual(['2026-05-31T22:00:00Z', '2026-05-31T23:00:00Z', '2026-06-01T00:00:00Z'])
    const res = await mock.fetch(`${BASE}/v1/assets`)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(mock.service.usage().acct_pro).toBe(1)
  })

  test('a server.use override applies, and is gone after reset', async () => {
    mock.server.use(http.get(`${BASE}/v1/assets`, () => HttpResponse.json([{ name: 'Gold', asset_type: 'COMMODITY', ticker: 'XAU' }])))
    expect((await client().assets()).map((a) => a.ticker)).toEqual(['XAU'])
    await mock.reset()
    expect((await client().assets()).map((a) => a.ticker)).toContain('BTC')
  })

  test('an injected network error and a URL outside the base URL fail like an unreachable host', async () => {
    mock.service.faults.add({ path: '/v1/assets', networkError: true })
    await expect(client().assets()).rejects.toBeInstanceOf(APIConnectionError)
    await expect(mock.fetch('https://elsewhere.test/v1/assets')).rejects.toThrow(/no mock handler answers GET https:\/\/elsewhere\.test/)
  })
})
