// The reference service in-process through MSW (as in vitest/jest): the client's default base URL is intercepted. Run: npx tsx examples/msw-in-tests.ts
import { DEFAULT_BASE_URL, createClient } from 'market-candles'
import { setupMockService } from 'market-candles/mocks/node'

// The client would otherwise take its base URL from this variable; this example wants the default.
delete process.env.MARKET_CANDLES_BASE_URL

const mock = setupMockService({ now: '2026-06-01T00:00:00Z' }) // intercepts DEFAULT_BASE_URL
mock.listen() // in a test file: beforeAll(() => mock.listen())
try {
  // No baseUrl: requests go to DEFAULT_BASE_URL, answered by the in-process service. No network.
  const client = createClient({ apiKey: 'demo-pro-key' })
  console.log(`intercepting ${mock.baseUrl} (DEFAULT_BASE_URL ${DEFAULT_BASE_URL})`)

  const exchanges = await client.exchanges()
  console.log(`exchanges: ${exchanges.map((e) => e.name).join(', ')}`)
  const candles = await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD', limit: 3 })
  for (const c of candles) console.log(`  ${c.close_ts}  close ${c.close}`)
  console.log(`usage after 1 candle call: ${JSON.stringify(mock.service.usage())}`)

  // Faults for retry tests: the next answer is a 503, the client retries and succeeds.
  mock.service.faults.add({ path: '/v1/exchange_ohlcv', status: 503 })
  let retries = 0
  const retrying = createClient({ apiKey: 'demo-pro-key', retry: { baseDelayMs: 10 }, hooks: { onRetry: () => void retries++ } })
  const again = await retrying.exchangeOhlcv({ exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD', limit: 3 })
  console.log(`after an injected 503: ${again.length} candles, ${retries} retry`)

  await mock.reset() // in a test file: afterEach(() => mock.reset())
  console.log(`usage after reset: ${JSON.stringify(mock.service.usage())}`)
} finally {
  mock.close() // in a test file: afterAll(() => mock.close())
}
