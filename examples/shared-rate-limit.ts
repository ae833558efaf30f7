// Two keys of one account sharing one RateLimiter: a burst of 30 calls draws no 429. Run: npx tsx examples/shared-rate-limit.ts
import { RateLimiter, createClient, type ClientHooks } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  // demo-enterprise-key and demo-enterprise-key-2 belong to the same account: the service counts
  // them against one limit of 10 requests/second. One limiter shared by both clients respects it.
  let ok = 0
  let rateLimited = 0
  const hooks: ClientHooks = { onResponse: (e) => (e.status === 429 ? rateLimited++ : ok++) }
  const limiter = new RateLimiter() // 10 requests per second, the account's rate
  const a = createClient({ apiKey: 'demo-enterprise-key', baseUrl: server.url, rateLimit: limiter, retry: false, hooks })
  const b = createClient({ apiKey: 'demo-enterprise-key-2', baseUrl: server.url, rateLimit: limiter, retry: false, hooks })

  const started = performance.now()
  const burst = Array.from({ length: 30 }, (_, i) =>
    (i % 2 === 0 ? a : b).exchangeOhlcv({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', limit: 10 }),
  )
  const results = await Promise.allSettled(burst)
  const failed = results.filter((r) => r.status === 'rejected').length
  const seconds = (performance.now() - started) / 1000
  console.log(`burst of 30 calls over 2 clients: ${ok} answered 200, ${rateLimited} answered 429, ${failed} failed, in ${seconds.toFixed(1)} s`)
  console.log(`service usage: ${JSON.stringify(server.service.usage())}`)
  if (rateLimited > 0 || failed > 0) process.exitCode = 1
} finally {
  await server.close()
}
