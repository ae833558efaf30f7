/**
 * A worker of bench section 3f (redis-workers.ts), in its own process, started once and reused:
 * prints `ready`, then for each JSON line on stdin (one run) walks its stretch of 1m candles with its
 * own client (and, for `redis`, its own limiter and Redis connection; the URL, holding a password,
 * comes from REDIS_URL, never from the command line) and prints `result {json}`.
 */
import { createInterface } from 'node:readline'
import { createClient, type RequestEvent } from '../../src/index.js'
import { createRedisRateLimiter } from '../../src/redis/index.js'

interface RunConfig {
  baseUrl: string
  apiKey: string
  limiter: 'redis' | 'header'
  account: string
  start: string
  end: string
  limit: number
}

const now = () => performance.timeOrigin + performance.now()

async function run(config: RunConfig) {
  const sent: number[] = []
  const answered: number[] = []
  /** When each 200 arrived, for the rate's spread. */
  const okAt: number[] = []
  const counts = { ok: 0, limited: 0, other: 0 }
  const candle = (e: RequestEvent) => e.endpoint === 'exchange_ohlcv'
  const redis = config.limiter === 'redis' ? createRedisRateLimiter({ url: process.env.REDIS_URL!, account: config.account }) : undefined
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
        } else if (e.status === 429) counts.limited++
        else counts.other++
      },
    },
  })
  const cpu = process.cpuUsage()
  let candles = 0
  let error: string | undefined
  try {
    // SDK defaults: ordered concurrent windows (8 in flight), retries.
    for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: config.start, end: config.end, limit: config.limit })) {
      candles += page.candles.length
    }
  } catch (caught) {
    // Reported in the row, not a crash: the other rows still get measured.
    error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)
  }
  const used = process.cpuUsage(cpu)
  await redis?.close()
  // The window the limiter ended with (one second plus its adaptive margin), and the round trips it saw.
  const trips = answered.map((t, i) => t - sent[i]!).sort((a, b) => a - b)
  const roundTripMs = { min: trips[0], median: trips[trips.length >> 1] }
  return { ...counts, candles, error, windowMs: redis?.windowMs, roundTripMs, firstSent: Math.min(...sent), lastAnswer: Math.max(...answered), okAt, sent, redisRoundTrips: redis?.roundTrips ?? 0, cpuMs: (used.user + used.system) / 1000 }
}

console.log('ready')
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue
  console.log(`result ${JSON.stringify(await run(JSON.parse(line) as RunConfig))}`)
}
