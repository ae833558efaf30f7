import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { ENTERPRISE, ENTERPRISE_2, PRO, TRANSPORTS, qs, type Transport } from '../support/transports.js'

const PAGE = `/v1/exchange_ohlcv${qs({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 1 })}`

describe.each(TRANSPORTS)('rate limit via %s', (_name, connect) => {
  let t: Transport
  let ms = 0
  beforeAll(async () => {
    t = await connect({ now: '2026-06-01T00:00:00Z', rateLimit: { clock: () => ms } })
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    ms = 10_000
    await t.service.reset()
  })

  test('10 counted requests per second per account; over it 429 with Retry-After and RateLimit-* headers', async () => {
    for (let i = 0; i < 10; i++) {
      const ok = await t.get(PAGE, PRO)
      expect(ok.status).toBe(200)
      expect(ok.headers.get('ratelimit-limit')).toBe('10')
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(9 - i))
      expect(ok.headers.get('ratelimit-reset')).toBe('1')
      ms += 10
    }
    const limited = await t.get(PAGE, PRO)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ detail: 'Rate limit exceeded: 10 requests per second' })
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.headers.get('ratelimit-limit')).toBe('10')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('ratelimit-reset')).toBe('1')
    expect(t.service.usage().acct_pro).toBe(10)
  })

  test('a sliding one-second window: a slot frees exactly when the oldest counted request is one second old', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await t.get(PAGE, PRO)).status).toBe(200)
      ms += 50 // ten requests spread over 500 ms
    }
    ms = 10_000 + 999
    expect((await t.get(PAGE, PRO)).status).toBe(429)
    ms = 10_000 + 1000
    expect((await t.get(PAGE, PRO)).status).toBe(200) // the first request left the window
    expect((await t.get(PAGE, PRO)).status).toBe(429) // the second is still in it
    ms = 10_000 + 1050
    expect((await t.get(PAGE, PRO)).status).toBe(200)
  })

  test('a 429 is not counted and does not consume the window', async () => {
    for (let i = 0; i < 10; i++) await t.get(PAGE, PRO)
    for (let i = 0; i < 20; i++) {
      ms += 10
      expect((await t.get(PAGE, PRO)).status).toBe(429)
    }
    expect(t.service.usage().acct_pro).toBe(10)
    ms = 10_000 + 1000
    for (let i = 0; i < 10; i++) expect((await t.get(PAGE, PRO)).status).toBe(200)
  })

  test('all keys of an account share one limit; other accounts are unaffected', async () => {
    for (let i = 0; i < 5; i++) expect((await t.get(PAGE, ENTERPRISE)).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await t.get(PAGE, ENTERPRISE_2)).status).toBe(200)
    expect((await t.get(PAGE, ENTERPRISE)).status).toBe(429)
    expect((await t.get(PAGE, ENTERPRISE_2)).status).toBe(429)
    expect((await t.get(PAGE, PRO)).status).toBe(200)
    expect(t.service.usage()).toEqual({ acct_free: 0, acct_pro: 1, acct_enterprise: 10 })
  })

  test('Retry-After is whole seconds, at least 1', async () => {
    for (let i = 0; i < 10; i++) await t.get(PAGE, PRO)
    ms += 999.6
    const res = await t.get(PAGE, PRO)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
  })

  test('rejected requests (401, 403, 404, 422) do not enter the window', async () => {
    for (let i = 0; i < 20; i++) {
      await t.get(`/v1/exchange_ohlcv${qs({ exchange: 'nope', interval: '1h', base: 'BTC', quote: 'USD' })}`, PRO)
      await t.get(`/v1/exchange_ohlcv${qs({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 0 })}`, PRO)
    }
    for (let i = 0; i < 10; i++) expect((await t.get(PAGE, PRO)).status).toBe(200)
  })
})

describe('rate limit recovery on the real clock', () => {
  test('a burst of 15 gets 10 answers and 5 429s; after Retry-After seconds the account is served again', async () => {
    const { viaHttp } = await import('../support/transports.js')
    const t = await viaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const burst = await Promise.all(Array.from({ length: 15 }, () => t.get(PAGE, PRO)))
      const statuses = burst.map((r) => r.status).sort()
      expect(statuses.filter((s) => s === 200)).toHaveLength(10)
      expect(statuses.filter((s) => s === 429)).toHaveLength(5)
      const retryAfter = Number(burst.find((r) => r.status === 429)!.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50))
      expect((await t.get(PAGE, PRO)).status).toBe(200)
      expect(t.service.usage().acct_pro).toBe(11)
    } finally {
      await t.close()
    }
  })
})
