/*
 * One SDK-with-mock suite, run under each vitest environment a web app's tests use (node, jsdom,
 * happy-dom): the client on the environment's own fetch, the service behind setupMockService.
 * Browser-like environments add a CORS preflight and hide response headers not exposed by CORS.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { setupMockService } from '../../mocks/node/index.js'
import { APIConnectionError, PermissionDeniedError, RateLimitError, createClient } from '../../src/index.js'

const BASE = 'https://api.candles.env.test'
const BTC = { exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD' } as const

export function sdkWithMockSuite(environment: 'node' | 'jsdom' | 'happy-dom'): void {
  describe(`the SDK with setupMockService under the vitest environment ${environment}`, () => {
    // The rate window reads wall time, unless a test holds it still (`rateWindowAt`): ten requests
    // in one sliding second is more than a loaded machine does through jsdom's fetch and preflights.
    let rateWindowAt: number | undefined
    const mock = setupMockService({ baseUrl: BASE, now: '2026-06-01T00:00:00Z', rateLimit: { clock: () => rateWindowAt ?? performance.now() } })
    beforeAll(() => mock.listen())
    afterEach(() => {
      rateWindowAt = undefined
      return mock.reset()
    })
    afterAll(() => mock.close())
    const client = (apiKey?: string) => createClient({ baseUrl: BASE, apiKey, retry: false, rateLimit: false })

    test('runs in the environment it is named after', () => {
      expect(typeof (globalThis as { document?: unknown }).document).toBe(environment === 'node' ? 'undefined' : 'object')
    })

    test('catalog calls answer (no key, a simple cross-origin GET)', async () => {
      const exchanges = await client().exchanges()
      expect(exchanges.map((e) => e.name)).toContain('bitstamp')
    })

    test('candle calls answer: the X-API-Key header passes the CORS preflight', async () => {
      const candles = await client('demo-pro-key').exchangeOhlcv({ ...BTC, limit: 24 })
      expect(candles).toHaveLength(24)
      expect(candles.at(-1)!.close_ts).toBe('2026-06-01T00:00:00Z')
    })

    test('a backward walk pages through the mock', async () => {
      const walk = client('demo-pro-key').exchangeOhlcvCandles({ ...BTC, end: '2026-05-31T00:00:00Z', limit: 50 }, { maxItems: 120 })
      const seen: string[] = []
      for await (const candle of walk) seen.push(candle.close_ts)
      expect(seen).toHaveLength(120)
      expect(seen[0]).toBe('2026-05-31T00:00:00Z')
      expect(new Set(seen).size).toBe(120)
    })

    test('a plan error is a PermissionDeniedError with the service detail', async () => {
      const error = await client('demo-free-key').aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 1 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PermissionDeniedError)
      expect((error as PermissionDeniedError).detail).toMatch(/aggregated_ohlcv/)
    })

    test('a 429 exposes Retry-After and RateLimit-* to the client (CORS expose-headers)', async () => {
      const sdk = client('demo-pro-key')
      // The service counts 10 requests per sliding second; the client's own limiter is off. The
      // window's clock stands still meanwhile: the eleven requests fall in one second however long
      // they take.
      rateWindowAt = performance.now()
      for (let i = 0; i < 10; i++) await sdk.exchangeOhlcv({ ...BTC, limit: 1 })
      const error = await sdk.exchangeOhlcv({ ...BTC, limit: 1 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RateLimitError)
      expect((error as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1)
      expect((error as RateLimitError).headers['ratelimit-limit']).toBe('10')
      expect((error as RateLimitError).headers['ratelimit-remaining']).toBe('0')
    })

    test('a connection failure is an APIConnectionError whose cause keeps the runtime\'s message (never the key)', async () => {
      mock.service.faults.add({ path: '/v1/exchange_ohlcv', networkError: true })
      const error = await client('demo-pro-key').exchangeOhlcv({ ...BTC, limit: 1 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(APIConnectionError)
      // The environment's fetch fails with an error of its own realm (happy-dom's, jsdom's): the
      // cause is a copy that keeps its message.
      const cause = (error as APIConnectionError).cause as Error | undefined
      expect(cause).toBeInstanceOf(Error)
      expect(cause!.message).not.toBe('')
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(cause!.message) + String(cause!.stack)).not.toContain('demo-pro-key')
    })
  })
}
