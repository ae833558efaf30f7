// Following the newest candles as they close, resuming from a cursor, and following many series at once.
// Run: npx tsx examples/follow-live.ts
import { createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

// A reference service whose clock runs 60 times wall speed: a new 1m candle closes every second.
const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z', clockRate: 60 })
try {
  const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })
  // The follow learns the service's clock (its speed too) from the Date headers; in process, `now` reads it exactly.
  const now = () => server.service.clock.now()
  const btc = { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' } as const

  // History from `start`, then each new candle once it has closed: ascending, each exactly once.
  const live = client.exchangeOhlcvFollow({ ...btc, start: '2026-05-31T23:55:00Z' }, { now })
  let saved = ''
  let count = 0
  for await (const candle of live) {
    console.log(`  ${candle.close_ts} close ${candle.close}`)
    saved = JSON.stringify(live.cursor) // plain JSON: store it with the candle
    if (++count === 8) break // 6 from the history, then 2 new ones
  }
  console.log(`followed ${count} candles; cursor: ${saved}`)

  // Later, even in another process: the same follow goes on right after the last candle delivered.
  const resumed = client.resumeFollow(JSON.parse(saved), { now })
  for await (const candle of resumed) {
    console.log(`resumed with ${candle.close_ts} (the next minute: no gap, no duplicate)`)
    break
  }

  // Many series under the account's one rate limit, with a lag figure per page for progress lines.
  const many = client.followMany(
    [
      { endpoint: 'exchange_ohlcv', ...btc },
      { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base: 'ETH', quote: 'USD' },
      { endpoint: 'aggregated_ohlcv', interval: '1m', base: 'BTC', quote: 'USD' },
    ],
    { now },
  )
  let pages = 0
  for await (const page of many.pages()) {
    const { endpoint, exchange, base, quote } = page.series
    console.log(`  ${endpoint} ${exchange ?? 'aggregated'} ${base}/${quote}: ${page.candles.map((c) => c.close_ts).join(', ')} (lag ${((page.lagMs ?? 0) / 1000).toFixed(1)} s of service time)`)
    if (++pages === 6) break
  }
  console.log(`followMany: ${pages} pages, one cursor for ${many.cursor.series.length} series`)

  // A closed exchange ends its follow with a reason instead of waiting forever.
  const ftx = client.exchangeOhlcvFollow({ exchange: 'ftx', interval: '1d', base: 'BTC', quote: 'USD', start: '2022-11-08' }, { now })
  for await (const candle of ftx) console.log(`  ftx ${candle.close_ts}`)
  console.log(`ended: ${ftx.ended?.message}`)
} finally {
  await server.close()
}
