import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { rateLimitDelay, retryDelay, retryPolicy } from '../../src/client/transport/retry-policy.js'
import { APIConnectionError, APIError, AuthenticationError, InternalServerError, RateLimitError, RateLimiter, type RequestEvent } from '../../src/index.js'
import { SDK_TARGETS, caught, sdkViaHttp, type SdkTarget } from '../support/sdk-targets.js'

const KEY = 'demo-enterprise-key'
const BTC = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 2 } as const
const FAST = { limit: 3, baseDelayMs: 5, maxDelayMs: 20 }

describe.each(SDK_TARGETS)('retries, via %s', (_name, connect) => {
  let target: SdkTarget
  beforeAll(async () => {
    target = await connect({ now: '2026-06-01T00:00:00Z' })
  })
  afterAll(() => target.close())
  beforeEach(async () => {
    target.sent.length = 0
    await target.service.reset()
  })

  test('5xx is retried; a retried request is counted by the service only once, for its 200', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 2 })
    const retries: Array<RequestEvent & { delayMs: number; error: Error }> = []
    const client = target.client({ apiKey: KEY, retry: FAST, hooks: { onRetry: (e) => retries.push(e) } })
    expect(await client.exchangeOhlcv(BTC)).toHaveLength(2)
    expect(target.sent).toHaveLength(3)
    expect(retries.map((r) => [r.attempt, r.error.constructor.name])).toEqual([[0, 'InternalServerError'], [1, 'InternalServerError']])
    expect(target.service.usage().acct_enterprise).toBe(1)
  })

  test('network failures are retried', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true, times: 2 })
    expect(await target.client({ apiKey: KEY, retry: FAST }).exchangeOhlcv(BTC)).toHaveLength(2)
    expect(target.sent).toHaveLength(3)
    expect(target.service.usage().acct_enterprise).toBe(1)
  })

  test('retries give up after the limit with the last error', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 500, times: 10 })
    const error = await caught(target.client({ apiKey: KEY, retry: { ...FAST, limit: 2 } }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(InternalServerError)
    expect(target.sent).toHaveLength(3)
    expect(target.service.usage().acct_enterprise).toBe(0)
  })

  test.each([
    ['401', 'demo-revoked-key', BTC],
    ['403', 'demo-free-key', { ...BTC, interval: '1m' }],
    ['404', KEY, { ...BTC, base: 'NOPE' }],
  ] as const)('never retried: %s', async (_status, apiKey, params) => {
    const error = await caught(target.client({ apiKey, retry: FAST }).exchangeOhlcv(params))
    expect(error).toBeInstanceOf(APIError)
    expect(target.sent).toHaveLength(1)
  })

  test('never retried: 422', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 422, body: { detail: [] }, times: 5 })
    await caught(target.client({ apiKey: KEY, retry: FAST }).exchangeOhlcv(BTC))
    expect(target.sent).toHaveLength(1)
  })

  test('429 is retried after Retry-After; a Retry-After longer than one window holds every request of the limiter back meanwhile', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 429, body: { detail: 'Rate limit exceeded: 10 requests per second' }, headers: { 'retry-after': '2' } })
    const limiter = new RateLimiter()
    const client = target.client({ apiKey: KEY, retry: FAST, rateLimit: limiter })
    const started = performance.now()
    const first = client.exchangeOhlcv(BTC)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(limiter.delay()).toBeGreaterThan(1800) // paused by the 429 for everyone sharing it
    await first
    expect(performance.now() - started).toBeGreaterThanOrEqual(1950)
    expect(target.sent).toHaveLength(2)
    expect(target.service.usage().acct_enterprise).toBe(1)
  })

  test('a 429 of one window (Retry-After: 1) lowers the limiter share instead of pausing it; the call itself waits Retry-After', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 429, headers: { 'retry-after': '1', 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' } })
    const limiter = new RateLimiter()
    const atRetry: Array<{ share: number }> = []
    const client = target.client({ apiKey: KEY, retry: FAST, rateLimit: limiter, hooks: { onRetry: () => atRetry.push({ share: limiter.share }) } })
    const started = performance.now()
    await client.exchangeOhlcv(BTC)
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)
    expect(atRetry).toHaveLength(1)
    expect(atRetry[0]!.share).toBeLessThan(10)
    expect(target.service.usage().acct_enterprise).toBe(1)
  })

  test('a Retry-After longer than maxRetryAfterMs is not waited out: the 429 is thrown', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 429, headers: { 'retry-after': '120' } })
    const error = await caught(target.client({ apiKey: KEY, retry: { ...FAST, maxRetryAfterMs: 5000 }, rateLimit: false }).exchangeOhlcv(BTC))
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfter).toBe(120)
  })

  test('an abort during a retry wait ends the request at once', async () => {
    target.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503, times: 5 })
    const controller = new AbortController()
    const pending = target.client({ apiKey: KEY, retry: { limit: 5, baseDelayMs: 10_000 } }).exchangeOhlcv(BTC, { signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = performance.now()
    controller.abort()
    expect(await caught(pending)).toMatchObject({ name: 'APIUserAbortError' })
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('a real rate-limited service: the SDK retries its 429s and every call lands', () => {
  test('12 quick calls without a client-side limiter: some get 429, all succeed after Retry-After, usage counts 12', async () => {
    const target = await sdkViaHttp({ now: '2026-06-01T00:00:00Z' })
    try {
      const statuses: number[] = []
      const client = target.client({ apiKey: KEY, rateLimit: false, retry: { limit: 3 }, hooks: { onResponse: (e) => statuses.push(e.status) } })
      const pages = await Promise.all(Array.from({ length: 12 }, () => client.exchangeOhlcv(BTC)))
      expect(pages.every((p) => p.length === 2)).toBe(true)
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2)
      expect(target.service.usage().acct_enterprise).toBe(12)
    } finally {
      await target.close()
    }
  })
})

describe('backoff: exponential with jitter, configurable', () => {
  const policy = retryPolicy({ limit: 5, baseDelayMs: 100, maxDelayMs: 1000 })
  const server = new InternalServerError(503, 'x', { method: 'GET', url: 'u' })
  test('each step doubles, capped, and jitter spreads it between half and all of the step', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(server, a, policy, () => 0))).toEqual([50, 100, 200, 400, 500])
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(server, a, policy, () => 0.999999))).toEqual([100, 200, 400, 800, 1000])
    expect(retryDelay(server, 6, policy)).toBeUndefined()
  })

  test('only 429, 5xx and connection failures are retried', () => {
    const info = { method: 'GET', url: 'u' }
    expect(retryDelay(new AuthenticationError(401, 'x', info), 1, policy)).toBeUndefined()
    expect(retryDelay(APIError.from(400, 'x', info), 1, policy)).toBeUndefined()
    expect(retryDelay(new APIConnectionError(info), 1, policy, () => 0)).toBe(50)
    expect(retryDelay(new RateLimitError(429, 'x', info, { 'retry-after': '2' }), 1, policy)).toBeUndefined() // 429s have their own bound
    expect(retryDelay(new Error('bug'), 1, policy)).toBeUndefined()
  })

  test('a 429 waits Retry-After plus up to a quarter of it at random, and never spends the retry limit: the bound is a total wait', () => {
    const info = { method: 'GET', url: 'u' }
    const limited = new RateLimitError(429, 'x', info, { 'retry-after': '2' })
    const tight = retryPolicy({ limit: 0, maxRateLimitWaitMs: 5000 })
    expect(rateLimitDelay(limited, 0, 1, tight, () => 0)).toBe(2000)
    expect(rateLimitDelay(limited, 0, 1, tight, () => 0.999999)).toBe(2500)
    expect(rateLimitDelay(limited, 2000, 2, tight, () => 0)).toBe(2000) // 4000 in all: within 5000
    expect(rateLimitDelay(limited, 3500, 3, tight, () => 0)).toBeUndefined() // 5500 would pass the bound
    expect(rateLimitDelay(new RateLimitError(429, 'x', info, { 'retry-after': '120' }), 0, 1, policy)).toBeUndefined() // over maxRetryAfterMs
    expect(rateLimitDelay(limited, 0, 1, retryPolicy(false))).toBeUndefined()
  })

  test('retry: false and retry: 0 switch retries off; a number is the limit', () => {
    expect(retryPolicy(false).limit).toBe(0)
    expect(retryPolicy(0).limit).toBe(0)
    expect(retryPolicy(4).limit).toBe(4)
  })
})
