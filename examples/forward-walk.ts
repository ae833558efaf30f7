// Paging a range forward with `for await`: candles in ascending close_ts, page by page or one by one. Run: npx tsx examples/forward-walk.ts
import { createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })
  // With `start`, a walk goes forward from `start` to `end` (or the latest candle).
  const range = { exchange: 'bitstamp', interval: '1h', base: 'ETH', quote: 'USD', start: '2026-05-01T00:00:00Z', end: '2026-05-08T00:00:00Z' } as const

  // Page by page: `limit` is the page size (default 1000, the service's maximum).
  console.log(`ETH/USD 1h on bitstamp, ${range.start} .. ${range.end}, pages of 48:`)
  let pages = 0
  for await (const page of client.exchangeOhlcvPages({ ...range, limit: 48 })) {
    pages++
    console.log(`  page ${pages}: ${page.candles.length} candles, ${page.candles[0]?.close_ts} .. ${page.candles.at(-1)?.close_ts}`)
  }

  // Candle by candle: the same range, one candle at a time, ascending.
  let count = 0
  let previous = ''
  let ascending = true
  let sum = 0
  for await (const candle of client.exchangeOhlcvCandles(range)) {
    if (candle.close_ts <= previous) ascending = false
    previous = candle.close_ts
    sum += candle.close
    count++
  }
  console.log(`candle by candle: ${count} candles, ascending: ${ascending}, mean close ${(sum / count).toFixed(2)}`)
} finally {
  await server.close()
}
