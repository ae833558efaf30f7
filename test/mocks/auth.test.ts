import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { ENTERPRISE, ENTERPRISE_2, PRO, REVOKED, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const CANDLES = [
  `/v1/exchange_ohlcv${qs({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 })}`,
  `/v1/aggregated_ohlcv${qs({ interval: '1h', base: 'BTC', quote: 'USD', limit: 2 })}`,
]

describe.each(TRANSPORTS)('authentication via %s', (_name, connect) => {
  let t: Transport
  beforeAll(async () => {
    t = await connect({ now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => t.close())
  beforeEach(() => t.service.reset())

  test.each(CANDLES)('missing or empty X-API-Key: 401 {"detail":"Not authenticated"} with WWW-Authenticate: APIKey — %s', async (path) => {
    for (const headers of [{}, { 'X-API-Key': '' }, { 'X-API-Key': '   ' }] as Record<string, string>[]) {
      const res = await t.get(path, headers)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ detail: 'Not authenticated' })
      expect(res.headers.get('www-authenticate')).toBe('APIKey')
    }
  })

  test.each(CANDLES)('a key that is unknown or revoked: 401 {"detail":"Invalid API key"} — %s', async (path) => {
    for (const headers of [REVOKED, { 'X-API-Key': 'demo-pro-key ' + 'x' }, { 'X-API-Key': 'DEMO-PRO-KEY' }]) {
      const res = await t.get(path, headers)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ detail: 'Invalid API key' })
      expect(res.headers.get('www-authenticate')).toBe('APIKey')
    }
  })

  test('a request rejected for authentication reasons is never counted in usage', async () => {
    for (const path of CANDLES) {
      await t.get(path)
      await t.get(path, REVOKED)
      await t.get(path, { 'X-API-Key': 'nope' })
    }
    expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 0, acct_enterprise: 0 })
  })

  test('the header name is case-insensitive, as HTTP headers are', async () => {
    const res = await t.get(CANDLES[0]!, { 'x-api-key': 'demo-pro-key' })
    expect(res.status).toBe(200)
  })

  test("calls made with any of the account's keys add up to the same account usage", async () => {
    await t.get(CANDLES[0]!, ENTERPRISE)
    await t.get(CANDLES[1]!, ENTERPRISE_2)
    await t.get(CANDLES[0]!, ENTERPRISE_2)
    await t.get(CANDLES[0]!, PRO)
    expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 1, acct_enterprise: 3 })
  })

  test('keys are created and revoked by the account holder: a revoked key stops working at once, a new one works', async () => {
    await t.service.keys.add('fresh-key-123', 'acct_pro')
    expect((await t.get(CANDLES[0]!, { 'X-API-Key': 'fresh-key-123' })).status).toBe(200)
    expect(await t.service.keys.revoke('fresh-key-123')).toBe(true)
    const res = await t.get(CANDLES[0]!, { 'X-API-Key': 'fresh-key-123' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ detail: 'Invalid API key' })
    expect(t.service.usage().acct_pro).toBe(1)
  })

  test('keys are stored hashed: listings show a short hint, never the key', () => {
    const listed = JSON.stringify(t.service.keys.list())
    expect(listed).not.toContain('demo-pro-key')
    expect(t.service.keys.list()).toContainEqual({ hint: 'demo…', account: 'acct_pro', revoked: true })
  })
})
