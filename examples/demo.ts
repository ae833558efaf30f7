// The main demo: embedded reference service + SDK (catalog, a year of 1h candles paged forward, the latest 1m paged backward). Run: npx tsx examples/demo.ts
import { createClient, type ExchangeCandle } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const NOW = '2026-06-01T00:00:00Z' // a fixed clock: the output is the same on every run (timings aside)
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const num = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 })

const started = performance.now()
const server = await startMockServer({ port: 0, host: '127.0.0.1', now: NOW })
try {
  console.log(`market-candles demo: reference service on ${server.url}, clock fixed at ${NOW}`)

  // Count the candle pages the walks fetch, through the client's request hooks.
  let candlePages = 0
  let rateLimited = 0
  const client = createClient({
    apiKey: 'demo-pro-key',
    baseUrl: server.url,
    hooks: {
      onResponse: (e) => {
        if (e.endpoint === 'exchange_ohlcv' && e.status === 200) candlePages++
        if (e.status === 429) rateLimited++
      },
    },
  })

  // (a) Catalog discovery: public endpoints, no key needed.
  console.log('\n(a) catalog')
  const exchanges = await client.exchanges()
  for (const e of exchanges) {
    console.log(`  exchange ${e.name.padEnd(9)} created ${e.creation_date}, ${e.closing_date ? `closed ${e.closing_date}` : 'open'}`)
  }
  const assets = await client.assets()
  const byType = new Map<string, number>()
  for (const a of assets) byType.set(a.asset_type, (byType.get(a.asset_type) ?? 0) + 1)
  console.log(`  ${assets.length} assets: ${[...byType].map(([type, n]) => `${n} ${type}`).join(', ')}`)
  const pairs = await client.exchangePairs({ exchange: 'bitstamp', interval: '1h' })
  console.log(`  bitstamp has ${pairs.length} pairs at 1h:`)
  for (const p of pairs) console.log(`    ${`${p.base}/${p.quote}`.padEnd(9)} ${p.first_close_ts} .. ${p.last_close_ts}`)

  // (b) One year of 1h BTC/USD, paged forward: with `start`, candles come in ascending close_ts.
  const end = new Date(NOW)
  const start = new Date(end.getTime() - 365 * DAY_MS)
  console.log(`\n(b) bitstamp BTC/USD 1h, one year paged forward (${start.toISOString()} .. ${end.toISOString()})`)
  candlePages = 0
  const forwardStarted = performance.now()
  let count = 0
  let missing = 0
  let min: ExchangeCandle | undefined
  let max: ExchangeCandle | undefined
  let first: ExchangeCandle | undefined
  let last: ExchangeCandle | undefined
  const forward = client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', start, end })
  for await (const c of forward) {
    count++
    if (last) missing += Math.round((Date.parse(c.close_ts) - Date.parse(last.close_ts)) / HOUR_MS) - 1
    first ??= c
    last = c
    if (!min || c.close < min.close) min = c
    if (!max || c.close > max.close) max = c
  }
  const forwardPages = candlePages
  console.log(`  ${num(count)} candles in ${forwardPages} pages of up to 1000, ${num(performance.now() - forwardStarted)} ms`)
  console.log(`  (${num(missing)} hours missing: the dataset has outages; coverage is not completeness)`)
  console.log(`  first close_ts ${first?.close_ts}  close ${num(first!.close)}`)
  console.log(`  last  close_ts ${last?.close_ts}  close ${num(last!.close)}`)
  console.log(`  min close ${num(min!.close)} at ${min!.close_ts}; max close ${num(max!.close)} at ${max!.close_ts}`)
  console.log(`  walk complete, cursor: ${JSON.stringify(forward.cursor)}`)

  // (c) The latest 1m candles, paged backward: without `start`, candles come newest first.
  console.log('\n(c) bitstamp BTC/USD 1m, latest candles paged backward (no start, maxItems 3000)')
  candlePages = 0
  const backward = client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' }, { maxItems: 3000 })
  const latest: ExchangeCandle[] = []
  for await (const c of backward) latest.push(c)
  const newestFirst = latest.every((c, i) => i === 0 || Date.parse(c.close_ts) < Date.parse(latest[i - 1]!.close_ts))
  console.log(`  ${num(latest.length)} candles in ${candlePages} pages; yielded newest first: ${newestFirst ? 'yes' : 'NO'}`)
  console.log(`  1st yielded    ${latest[0]!.close_ts}  close ${num(latest[0]!.close)}`)
  console.log(`  3000th yielded ${latest.at(-1)!.close_ts}  close ${num(latest.at(-1)!.close)}`)
  console.log(`  stopped at maxItems; cursor resumes further back with end=${backward.cursor?.query.end}`)

  // (d) Summary: what the service counted, and how fast it went.
  const seconds = (performance.now() - started) / 1000
  const total = count + latest.length
  const usage = Object.entries(server.service.usage()).map(([account, n]) => `${account} ${n}`)
  console.log('\n(d) summary')
  console.log(`  service-counted candle requests: ${usage.join(', ')}`)
  console.log(`  ${num(total)} candles in ${num(seconds)} s: ${num(Math.round(total / seconds))} candles/s`)
  console.log(`  429 answers: ${rateLimited} (the client paces itself to the account's 10 requests/second)`)
} finally {
  await server.close()
}
