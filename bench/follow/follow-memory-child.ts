/**
 * Child of bench/follow/follow.ts (section follow, c): RSS while a follow polls for a long time. 20 `1m`
 * series through `followMany` against `serve` at the URL given, whose clock runs at the rate given
 * (300x: a minute every 200 ms, 100 polls a second), in a process of its own so the RSS is the follower's
 * alone. With `naive` as the third argument it makes the same requests as plain page calls instead,
 * for comparison. Prints one `result {json}` line: memory after a full GC at each checkpoint, with
 * the committed size of V8's young generation (new space): V8 grows it, up to its maximum, as a
 * process keeps allocating, and a full GC does not give it back, so it shows in RSS.
 */
import { getHeapSpaceStatistics } from 'node:v8'
import { createClient } from '../../src/index.js'
import { fullGc } from '../support/cpu-time.js'
import { serviceClockOf } from './service-clock-model.js'

const POLLS = 10_000
const CHECKPOINTS = [1_000, 2_500, 5_000, 7_500, POLLS]
const PAIRS = ['BTC/USD', 'BTC/EUR', 'ETH/USD', 'ETH/BTC', 'XRP/USD', 'SOL/USDT', 'USDC/USD', 'DOGE/USD', 'ADA/EUR', 'BTC/GBP']

const url = process.argv[2]!
const RATE = Number(process.argv[3])
const serviceNow = await serviceClockOf(url, RATE)
let polls = 0
const samples: { polls: number; rssMb: number; heapMb: number; heapTotalMb: number; externalMb: number; arrayBuffersMb: number; newSpaceMb: number }[] = []
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

/** Memory after a full GC once `polls` reaches the next checkpoint; true after the last one. */
function sample(): boolean {
  if (polls < CHECKPOINTS[samples.length]!) return false
  fullGc()
  const m = process.memoryUsage()
  const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? Number.NaN
  samples.push({ polls, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, heapTotalMb: m.heapTotal / 2 ** 20, externalMb: m.external / 2 ** 20, arrayBuffersMb: m.arrayBuffers / 2 ** 20, newSpaceMb: newSpace / 2 ** 20 })
  return samples.length === CHECKPOINTS.length
}

if (process.argv[4] === 'naive') {
  // The comparison: the same number of plain page requests at the same pace (a series a poll, in
  // turn, one interval's worth of requests per 1/RATE of a minute), no follow: what HTTP itself costs.
  const pace = 60_000 / RATE / series.length
  for (let i = 0; !sample(); i++) {
    const s = series[i % series.length]!
    const { endpoint, ...params } = s
    const page = endpoint === 'exchange_ohlcv' ? await client.exchangeOhlcv({ ...params, exchange: 'bitstamp', limit: 1 }) : await client.aggregatedOhlcv({ ...params, limit: 1 })
    candles += page.length
    await new Promise((r) => setTimeout(r, pace))
  }
} else {
  const last = new Map<object, string>()
  try {
    for await (const { series: s, candle } of client.followMany(series, { now: serviceNow, signal: controller.signal })) {
      candles++
      if ((last.get(s) ?? '') >= candle.close_ts) ordered = false
      last.set(s, candle.close_ts)
      if (sample()) break
    }
  } finally {
    controller.abort()
  }
}
console.log(`result ${JSON.stringify({ samples, candles, ordered, wallMs: performance.now() - started })}`)
