// Three worker processes of one account share its rate limit through Redis: 60 calls, no 429.
// Run: REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/redis-workers.ts   (needs a Redis server and ioredis)
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'
import { createRedisRateLimiter } from 'market-candles/redis'

const WORKERS = 3
const CALLS = 20
const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2'] // two keys of one account: one limit of 10/s

if (process.argv[2] === 'worker') {
  // A worker: its own process, its own client, its own Redis connection; one shared window.
  const [baseUrl, index] = [process.argv[3]!, Number(process.argv[4])]
  const rateLimit = createRedisRateLimiter({ url: process.env.REDIS_URL, account: 'acct-enterprise-example' })
  const statuses: number[] = []
  const client = createClient({ apiKey: KEYS[index % KEYS.length], baseUrl, rateLimit, retry: false, hooks: { onResponse: (e) => statuses.push(e.status) } })
  const calls = Array.from({ length: CALLS }, () => client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', limit: 10 }))
  const failed = (await Promise.allSettled(calls)).filter((r) => r.status === 'rejected').length
  await rateLimit.close()
  process.send!({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length, failed })
} else {
  if (!process.env.REDIS_URL) {
    console.error('Set REDIS_URL to a Redis server, e.g. REDIS_URL=redis://127.0.0.1:6379 (apt-get install -y redis-server)')
    process.exit(1)
  }
  const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
  try {
    const started = performance.now()
    const results = await Promise.all(
      Array.from({ length: WORKERS }, (_, i) => {
        const child = fork(fileURLToPath(import.meta.url), ['worker', server.url, String(i)])
        return new Promise<{ ok: number; limited: number; failed: number }>((resolve, reject) => {
          child.once('message', (m) => resolve(m as { ok: number; limited: number; failed: number }))
          child.once('exit', (code) => code !== 0 && reject(new Error(`worker ${i} exited with ${code}`)))
        })
      }),
    )
    const sum = (k: 'ok' | 'limited' | 'failed') => results.reduce((n, r) => n + r[k], 0)
    const seconds = (performance.now() - started) / 1000
    console.log(`${WORKERS} worker processes, ${WORKERS * CALLS} calls: ${sum('ok')} answered 200, ${sum('limited')} answered 429, ${sum('failed')} failed, in ${seconds.toFixed(1)} s`)
    console.log(`service usage: ${JSON.stringify(server.service.usage())}`)
    if (sum('limited') > 0 || sum('failed') > 0) process.exitCode = 1
  } finally {
    await server.close()
  }
}
