/*
 * Clients of one account that share no limiter, against the reference's three ways of answering
 * over the rate (D13; the variants of mocks/core/variant): 429 with Retry-After and RateLimit-*
 * (and RateLimit-* on 200s, D7), 429 with Retry-After only, 429 with no header at all. Behaviour
 * only (contract: rate-limit); the rates are bench 3d's.
 */
import { describe, expect, test } from 'vitest'
import { createClient, RateLimiter } from '../../../src/index.js'
import { startMockServer } from '../../../mocks/server/index.js'

const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2']
const PAGE = 10
/** Pages the second client walks, beside the first. */
const PAGES = 30
/** Pages the first client may walk in all, at most. */
const ALONE_PAGES = 300
const MINUTE = 60_000
const START = Date.UTC(2020, 0, 1)

const range = (from: number, pages: number) =>
  ({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: new Date(from).toISOString(), end: new Date(from + (pages * PAGE - 1) * MINUTE).toISOString(), limit: PAGE }) as const

// Each test has its own server and spends its time waiting for the account's 10 requests a second: they run side by side.
describe.concurrent('clients of one account that share no limiter settle on its rate, whatever the deployment says over it', () => {
  test.each(['all', 'retry-after', 'none'] as const)('429 with %s rate-limit headers: two clients walking together get every candle once with at most 1 answer in 5 a 429; once one is done, the other takes the whole window back with no 429', async (headers) => {
    const server = await startMockServer({ port: 0, latency: 20, now: '2026-06-01T00:00:00Z', variant: { rateLimitHeaders: headers } })
    try {
      const answers: Array<{ client: number; status: number; at: number }> = []
      const limiters = KEYS.map(() => new RateLimiter())
      const clients = KEYS.map((apiKey, i) =>
        createClient({ apiKey, baseUrl: server.url, rateLimit: limiters[i], hooks: { onResponse: (e) => e.endpoint === 'exchange_ohlcv' && answers.push({ client: i, status: e.status, at: performance.now() }) } }),
      )
      // The second client walks PAGES pages; the first goes on after it is done, until its share is
      // the whole window again (or ALONE_PAGES more pages: then the test fails).
      let secondDone = Infinity
      const second = (async () => {
        let candles = 0
        for await (const page of clients[1]!.exchangeOhlcvPages(range(START + ALONE_PAGES * PAGE * MINUTE, PAGES))) candles += page.candles.length
        secondDone = performance.now()
        return candles
      })()
      let firstPages = 0
      for await (const _ of clients[0]!.exchangeOhlcvPages(range(START, ALONE_PAGES))) {
        if (++firstPages >= PAGES && performance.now() > secondDone + 1100 && limiters[0]!.share === 10) break
      }
      expect(await second).toBe(PAGES * PAGE)
      expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([])
      const together = answers.filter((a) => a.at <= secondDone)
      // Bench 3d measures about 3 % with two clients; a loaded machine delays answers, and so trials.
      const refused = together.filter((a) => a.status === 429).length
      expect(refused, `${refused} of ${together.length} answers 429 while both walked`).toBeLessThanOrEqual(together.length / 5)
      // The second's requests leave the account's window within a second: from then on the first
      // is alone, finds out from its own answers, and keeps to the account's rate.
      expect(limiters[0]!.share).toBe(10)
      expect(answers.filter((a) => a.at > secondDone + 1100 && a.status !== 200), 'answers other than 200 once alone').toEqual([])
    } finally {
      await server.close()
    }
  }, 60_000)
})
