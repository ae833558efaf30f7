/**
 * Child of bench/follow.ts (section 7c): RSS while a follow polls for a long time. 20 `1m` series
 * through `followMany` against the in-process reference service (its `fetch`, no sockets), whose
 * clock runs 6000 times wall speed (a minute every 10 ms), so 10,000 polls take seconds. Prints one
 * `result {json}` line: RSS and live heap after a full GC at 1,000 and at 10,000 polls.
 */
import { createClient } from '../src/index.js'
import { setupMockService } from '../mocks/node/index.js'
import { fullGc } from './cpu-time.js'

const POLLS = 10_000
const CHECKPOINTS = [1_000, 2_500, 5_000, 7_500, POLLS]
const PAIRS = ['BTC/USD', 'BTC/EUR', 'ETH/USD', 'ETH/BTC', 'XRP/USD', 'SOL/USDT', 'USDC/USD', 'DOGE/USD', 'ADA/EUR', 'BTC/GBP']

const mock = setupMockService({ now: '2026-06-01T00:00:00Z', clockRate: 1500, rateLimit: false })
let polls = 0
const samples: { polls: number; rssMb: number; heapMb: number }[] = []
const controller = new AbortController()
const client = createClient({
  apiKey: 'demo-enterprise-key',
  fetch: mock.fetch,
  rateLimit: false,
  hooks: { onRequest: (e) => void (e.endpoint.endsWith('ohlcv') && polls++) },
})
const series = PAIRS.flatMap((pair) => {
  const [base, quote] = pair.split('/') as [string, string]
  return [
    { endpoint: 'exchange_ohlcv' as const, exchange: 'bitstamp', interval: '1m', base, quote },
    { endpoint: 'aggregated_ohlcv' as const, interval: '1m', base, quote },
  ]
})
const started = performance.now()
let candles = 0
let ordered = true
const last = new Map<object, string>()
try {
  for await (const { series: s, candle } of client.followMany(series, { now: () => mock.service.clock.now(), signal: controller.signal })) {
    candles++
    if ((last.get(s) ?? '') >= candle.close_ts) ordered = false
    last.set(s, candle.close_ts)
    if (polls >= CHECKPOINTS[samples.length]!) {
      fullGc()
      const m = process.memoryUsage()
      samples.push({ polls, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20 })
      if (samples.length === CHECKPOINTS.length) break
    }
  }
} finally {
  controller.abort()
}
console.log(`result ${JSON.stringify({ samples, candles, ordered, wallMs: performance.now() - started })}`)
