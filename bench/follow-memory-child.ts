/**
 * Child of bench/follow.ts (section follow, c): RSS while a follow polls for a long time. 20 `1m`
 * series through `followMany` against `serve` at the URL given, whose clock runs at the rate given
 * (300x: a minute every 200 ms, 100 polls a second), in a process of its own so the RSS is the follower's
 * alone. Prints one `result {json}` line: memory after a full GC at each checkpoint.
 */
import { createClient } from '../src/index.js'
import { fullGc } from './cpu-time.js'
import { serviceClockOf } from './service-clock-model.js'

const POLLS = 10_000
const CHECKPOINTS = [1_000, 2_500, 5_000, 7_500, POLLS]
const PAIRS = ['BTC/USD', 'BTC/EUR', 'ETH/USD', 'ETH/BTC', 'XRP/USD', 'SOL/USDT', 'USDC/USD', 'DOGE/USD', 'ADA/EUR', 'BTC/GBP']

const url = process.argv[2]!
const serviceNow = await serviceClockOf(url, Number(process.argv[3]))
let polls = 0
const samples: { polls: number; rssMb: number; heapMb: number; heapTotalMb: number; externalMb: number }[] = []
const controller = new AbortController()
const client = createClient({
  apiKey: 'demo-enterprise-key',
  baseUrl: url,
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
  for await (const { series: s, candle } of client.followMany(series, { now: serviceNow, signal: controller.signal })) {
    candles++
    if ((last.get(s) ?? '') >= candle.close_ts) ordered = false
    last.set(s, candle.close_ts)
    if (polls >= CHECKPOINTS[samples.length]!) {
      fullGc()
      const m = process.memoryUsage()
      samples.push({ polls, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, heapTotalMb: m.heapTotal / 2 ** 20, externalMb: m.external / 2 ** 20 })
      if (samples.length === CHECKPOINTS.length) break
    }
  }
} finally {
  controller.abort()
}
console.log(`result ${JSON.stringify({ samples, candles, ordered, wallMs: performance.now() - started })}`)
