import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupMockService } from '../../../mocks/node/index.js'
import { DEFAULT_BASE_URL } from '../../../src/contract/index.js'

describe('the node helper for vitest/jest users', () => {
  const mock = setupMockService({ now: '2026-06-01T00:00:00Z' })
  beforeAll(() => mock.listen())
  afterEach(() => mock.reset())
  afterAll(() => mock.close())

  test('intercepts the default base URL in this process, with global fetch', async () => {
    const res = await fetch(`${DEFAULT_BASE_URL}/v1/exchanges`)
    expect(res.status).toBe(200)
    expect((await res.json())[0].name).toBe('bitstamp')
  })

  test('gives access to the service state: usage, clock, keys', async () => {
    const url = `${DEFAULT_BASE_URL}/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=BTC&quote=USD&limit=1`
    const first = await (await fetch(url, { headers: { 'X-API-Key': 'demo-pro-key' } })).json()
    expect(first[0].close_ts).toBe('2026-06-01T00:00:00Z')
    mock.service.clock.advance(86_400_000)
    const next = await (await fetch(url, { headers: { 'X-API-Key': 'demo-pro-key' } })).json()
    expect(next[0].close_ts).toBe('2026-06-02T00:00:00Z')
    expect(mock.service.usage().acct_pro).toBe(2)
    await mock.service.keys.revoke('demo-pro-key')
    expect((await fetch(url, { headers: { 'X-API-Key': 'demo-pro-key' } })).status).toBe(401)
  })

  test('reset restores usage, clock and keys after a test', async () => {
    expect(mock.service.usage().acct_pro).toBe(0)
    expect(mock.service.clock.now()).toBe(Date.UTC(2026, 5, 1))
    const url = `${DEFAULT_BASE_URL}/v1/exchange_ohlcv?exchange=bitstamp&interval=1d&base=BTC&quote=USD&limit=1`
    expect((await fetch(url, { headers: { 'X-API-Key': 'demo-pro-key' } })).status).toBe(200)
  })

  test('overrides with server.use are dropped by reset', async () => {
    mock.server.use(http.get(`${DEFAULT_BASE_URL}/v1/assets`, () => HttpResponse.json([], { status: 200 })))
    expect(await (await fetch(`${DEFAULT_BASE_URL}/v1/assets`)).json()).toEqual([])
  })

  test('after reset the service answers again', async () => {
    expect((await (await fetch(`${DEFAULT_BASE_URL}/v1/assets`)).json()).length).toBeGreaterThanOrEqual(10)
  })

  test('any base URL, with a path prefix', async () => {
    const other = setupMockService({ baseUrl: 'https://candles.internal/api/', now: '2026-06-01T00:00:00Z' })
    mock.close()
    other.listen()
    try {
      const res = await fetch('https://candles.internal/api/v1/assets')
      expect(res.status).toBe(200)
      expect((await fetch('https://candles.internal/api/v1/nothing')).status).toBe(404)
    } finally {
      other.close()
      mock.listen()
    }
  })
})
