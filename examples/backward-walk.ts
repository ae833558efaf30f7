// Paging backward from the latest candle (no `start`): newest first, capped with maxItems. Run: npx tsx examples/backward-walk.ts
import { createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })

  // Without `start`, a walk goes backward from `end` (or the latest candle); maxItems stops it.
  const walk = client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' }, { maxItems: 2500 })
  const seen: string[] = []
  for await (const candle of walk) {
    if (seen.length < 3) console.log(`  ${candle.close_ts}  close ${candle.close}`)
    seen.push(candle.close_ts)
  }
  const newestFirst = seen.every((ts, i) => i === 0 || ts < seen[i - 1]!)
  console.log(`latest BTC/USD 1m: ${seen.length} candles, newest first: ${newestFirst}, oldest ${seen.at(-1)}`)
  console.log(`stopped by maxItems; walk.cursor goes on back from end=${walk.cursor?.query.end}`)

  // Without maxItems, a backward walk runs to the first candle; its cursor is then null.
  // ftx closed on 2022-11-11, so its latest candle is from that day.
  let count = 0
  let oldest = ''
  let newest = ''
  const full = client.exchangeOhlcvCandles({ exchange: 'ftx', interval: '1d', base: 'BTC', quote: 'USD' })
  for await (const candle of full) {
    newest ||= candle.close_ts
    oldest = candle.close_ts
    count++
  }
  console.log(`all of ftx BTC/USD 1d, backward: ${count} candles, ${newest} back to ${oldest}; cursor ${JSON.stringify(full.cursor)}`)
} finally {
  await server.close()
}
