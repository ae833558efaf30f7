import { describe, expect, test } from 'vitest'
import { createClient, RateLimitError } from '../../../src/index.js'
import { startMockServer } from '../../../mocks/server/index.js'

const PARAMS = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 } as const
const CALLS = 60

/**
 * Clients of one account that cannot share a limiter (separate processes or machines), each with the
 * defaults: every call must land, and the service must count each exactly once (contract: rate-limit).
 */
async function uncoordinated(keys: string[]) {
  const server = await startMockServer({
    port: 0,
    now: '2026-06-01T00:00:00Z',
    keys: [...keys.map((key) => ({ key, account: 'acct_enterprise' })), { key: 'demo-pro-key', account: 'acct_pro' }],
  })
  try {
    const statuses: number[] = []
    const clients = keys.map((apiKey) => createClient({ apiKey, baseUrl: server.url, hooks: { onResponse: (e) => statuses.push(e.status) } }))
    const started = performance.now()
    const results = await Promise.allSettled(clients.flatMap((client) => Array.from({ length: CALLS }, () => client.exchangeOhlcv(PARAMS))))
    const seconds = (performance.now() - started) / 1000
    return { results, statuses, seconds, usage: server.service.usage().acct_enterprise }
  } finally {
    await server.close()
  }
}

// Each test has its own server and spends its time waiting for the account's 10 calls a second: they run side by side.
describe.concurrent('no call is lost to 429 when clients of one account do not share a limiter', () => {
  test.each([
    [2, ['demo-enterprise-key', 'demo-enterprise-key-2']],
    [4, ['acct-key-a', 'acct-key-b', 'acct-key-c', 'acct-key-d']],
  ])('%i clients, each with its own limiter, 60 concurrent calls each: all succeed and usage counts each call once', async (n, keys) => {
    const { results, statuses, seconds, usage } = await uncoordinated(keys)
    const rejected = results.filter((r) => r.status === 'rejected')
    expect(rejected.map((r) => (r as PromiseRejectedResult).reason)).toEqual([])
    expect(results.every((r) => r.status === 'fulfilled' && r.value.length === 2)).toBe(true)
    expect(usage).toBe(n * CALLS)
    expect(statuses.filter((s) => s === 200)).toHaveLength(n * CALLS)
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([])
    // The account allows 10 per second: the calls cannot take less than that, and should not take much more.
    expect(seconds).toBeGreaterThan((n * CALLS) / 10 - 1.5)
    expect(seconds).toBeLessThan((n * CALLS) / 10 * 2)
  }, 90_000)

  test('a call fails with RateLimitError only past its 429 bound (maxRateLimitWaitMs), not after a number of retries', async () => {
    const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
    try {
      server.service.faults.add({ path: '/v1/exchange_ohlcv', status: 429, headers: { 'retry-after': '1' }, times: 100 })
      const attempts: number[] = []
      const client = createClient({ apiKey: 'demo-enterprise-key', baseUrl: server.url, retry: { limit: 0, maxRateLimitWaitMs: 3000 }, hooks: { onRequest: (e) => attempts.push(e.attempt) } })
      const started = performance.now()
      const error = await client.exchangeOhlcv(PARAMS).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RateLimitError)
      // limit 0 would allow no retry at all: the 429s were retried within their own bound of 3 s
      expect(attempts.length).toBeGreaterThanOrEqual(3)
      expect(performance.now() - started).toBeLessThan(6000)
    } finally {
      await server.close()
    }
  }, 20_000)
})
