/**
 * One worker of bench section 3f (redis-workers.ts), in its own process: its own client (and, with
 * `redis`, its own Redis connection), walking its stretch of 1m candles once the parent says `go`.
 * Prints `ready`, then `result {json}`.
 */
import { createInterface } from 'node:readline'
import { createClient, type RequestEvent } from '../src/index.js'
import { createRedisRateLimiter } from '../src/redis/index.js'

interface WorkerConfig {
  baseUrl: string
  apiKey: string
  limiter: 'redis' | 'header'
  redisUrl: string
  account: string
  start: string
  end: string
  limit: number
}

const config = JSON.parse(process.argv[2]!) as WorkerConfig
const now = () => performance.timeOrigin + performance.now()
const sent: number[] = []
const answered: number[] = []
/** When each 200 arrived, for the rate's spread over slices of the run. */
const okAt: number[] = []
const counts = { ok: 0, limited: 0, other: 0 }
const candle = (e: RequestEvent) => e.endpoint === 'exchange_ohlcv'
const redis = config.limiter === 'redis' ? createRedisRateLimiter({ url: config.redisUrl, account: config.account }) : undefined
const client = createClient({
  apiKey: config.apiKey,
  baseUrl: config.baseUrl,
  ...(redis ? { rateLimit: redis } : {}),
  hooks: {
    onRequest: (e) => candle(e) && sent.push(now()),
    onResponse: (e) => {
      if (!candle(e)) return
      answered.push(now())
      if (e.status === 200) {
        counts.ok++
        okAt.push(now())
      }
      else if (e.status === 429) counts.limited++
      else counts.other++
    },
  },
})

console.log('ready')
const lines = createInterface({ input: process.stdin })
for await (const line of lines) if (line === 'go') break
const cpu = process.cpuUsage()
let candles = 0
for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: config.start, end: config.end, limit: config.limit }, { concurrency: 1 })) {
  candles += page.candles.length
}
const used = process.cpuUsage(cpu)
await redis?.close()
console.log(`result ${JSON.stringify({ ...counts, candles, firstSent: Math.min(...sent), lastAnswer: Math.max(...answered), okAt, redisRoundTrips: redis?.roundTrips ?? 0, cpuMs: (used.user + used.system) / 1000 })}`)
process.exit(0)
