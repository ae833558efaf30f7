/**
 * Section 3f: several worker processes of one account, each with its own client, against
 * `serve --latency 50` and `--latency 250` (10 counted requests/s per account, sliding window):
 * the Redis limiter (market-candles/redis, one real redis-server) side by side with the
 * header-learning limiter (each worker its own RateLimiter), for 1, 2, 4 and 8 workers, in one run.
 * Each configuration walks REQUESTS pages of 1m candles in all, split between its workers (SDK
 * defaults: 8 windows in flight per worker); its rate is 200s per second from the first request
 * sent to the last answer, its spread the lowest and highest rate over blocks of BLOCK answers. The
 * worker processes start once and serve every row (start-up is not measured). Then the limiter's
 * own cost per request: CPU and Redis round trips, without waiting (100 accounts of 10 slots each).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { RateLimiter } from '../../src/index.js'
import { createRedisRateLimiter } from '../../src/redis/index.js'
import { startRedis, hasRedis, REDIS_SKIP_NOTE, type RedisServer } from '../../test/support/redis-server.js'
import { CLI } from '../support/build-cli.js'
import { procCpuMs, startChildServer } from '../support/child-server.js'
import { MINUTE, NOW } from '../support/fixtures.js'
import { fmt, verdict } from '../support/stats.js'
import { verdictOf, type BenchRow } from '../support/table.js'

const CHILD = fileURLToPath(new URL('./redis-worker-child.ts', import.meta.url))
const LATENCIES = [50, 250] as const
const WORKER_COUNTS = [1, 2, 4, 8] as const
const LIMITERS = ['redis', 'header'] as const
/** Candle requests per configuration, split between its workers: 4 counts x 150 = 600 per limiter and latency. */
const REQUESTS = 152
const PAGE = 100
/** 200s per block of the spread: five blocks per row. */
const BLOCK = 30
const RATE_TARGET = 9.5
/** One worker's Redis limiter against its in-process one: as fast, within the noise of one run (2 %). */
const SAME_RATE = 0.98
const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2']
const START_MS = Date.UTC(2021, 0, 1)
/** Between configurations: the previous one's requests leave the service's one-second window. */
const DRAIN_MS = 1500
const COST_ACCOUNTS = 100

type Limiter = (typeof LIMITERS)[number]

/**
 * BENCH_3F_ROWS runs only some rows while investigating, e.g. `250:8:redis,250:4` (latency, worker
 * count, limiter; a part left out matches any). The verdict then covers only those rows.
 */
const ROWS = process.env.BENCH_3F_ROWS?.split(',').map((r) => r.trim().split(':'))
const selected = (latency: number, workers: number, limiter: Limiter) =>
  ROWS === undefined || ROWS.some(([l, w, k]) => (l === undefined || l === '' || Number(l) === latency) && (w === undefined || w === '' || Number(w) === workers) && (k === undefined || k === '' || k === limiter))

export interface ChildResult {
  ok: number
  limited: number
  other: number
  candles: number
  firstSent: number
  lastAnswer: number
  okAt: number[]
  /** When each candle request left (this process's clock on the epoch scale). */
  sent: number[]
  windowMs?: number
  redisRoundTrips: number
  cpuMs: number
  error?: string
}

export interface WorkersRun {
  latency: number
  workers: number
  limiter: Limiter
  ok: number
  limited: number
  other: number
  rate: number
  /** Lowest and highest rate over the run's full slices. */
  low: number
  high: number
  spanS: number
  /** Redis round trips and worker CPU per candle request. */
  roundTripsPerRequest: number
  cpuMsPerRequest: number
  /** A worker's walk failed (its first error). */
  error?: string
  /** Hand-off: how long after a slot could be reused (its request's send plus the window) the fleet's next request left, ms. */
  handoff: HandoffLag
}

/** Lag from a slot's reuse time to the request that reused it, across the fleet: the slots of each worker's first window apart. */
export interface HandoffLag {
  firstWindow: { count: number; medianMs: number; meanMs: number }
  later: { count: number; medianMs: number; meanMs: number }
}

export interface LimiterCost {
  limiter: string
  perRequestUs: number
  cpuUsPerRequest: number
  roundTripsPerRequest: number
  redisServerCpuUsPerRequest: number
}

export interface RedisWorkers {
  skipped?: string
  runs: WorkersRun[]
  costs: LimiterCost[]
  pass: boolean
}

/** A worker process, reused for every row: one run per JSON line, one `result` line back. */
export interface Worker {
  run(config: object): Promise<ChildResult>
  stop(): void
}

export async function startWorker(redisUrl: string): Promise<Worker> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, REDIS_URL: redisUrl } })
  const kill = () => child.kill('SIGKILL')
  process.on('exit', kill)
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (s: string) => err.length < 4000 && (err += s))
  let waiting: { resolve(line: string): void; reject(error: Error): void } | undefined
  let onReady!: () => void
  const ready = new Promise<void>((r) => (onReady = r))
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (l === 'ready') onReady()
    else if (l.startsWith('result ')) waiting?.resolve(l.slice('result '.length))
  })
  child.once('exit', (code) => waiting?.reject(new Error(`${CHILD} exited (${code})\n${err}`)))
  await ready
  return {
    run: (config) =>
      new Promise<ChildResult>((resolve, reject) => {
        const timer = setTimeout(() => (kill(), reject(new Error(`${CHILD}: no result within 120 s`))), 120_000)
        waiting = {
          resolve: (line) => (clearTimeout(timer), resolve(JSON.parse(line) as ChildResult)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        }
        child.stdin.write(`${JSON.stringify(config)}\n`)
      }),
    stop: () => {
      process.off('exit', kill)
      child.stdin.end()
      kill()
    },
  }
}

async function run(latency: number, workers: number, limiter: Limiter, baseUrl: string, pool: readonly Worker[], account: string): Promise<WorkersRun> {
  const pages = Math.floor(REQUESTS / workers)
  const results = await Promise.all(
    pool.slice(0, workers).map((worker, i) => {
      const startMs = START_MS + i * pages * PAGE * MINUTE
      return worker.run({
        baseUrl,
        apiKey: KEYS[i % KEYS.length],
        limiter,
        account,
        start: new Date(startMs).toISOString(),
        end: new Date(startMs + (pages * PAGE - 1) * MINUTE).toISOString(),
        limit: PAGE,
      })
    }),
  )
  const failed = results.find((r) => r.error !== undefined)
  const short = results.find((r) => r.candles !== pages * PAGE)
  const error = failed?.error ?? (short ? `a worker got ${short.candles} candles, expected ${pages * PAGE}` : undefined)
  const first = Math.min(...results.map((r) => r.firstSent))
  const last = Math.max(...results.map((r) => r.lastAnswer))
  const ok = results.reduce((n, r) => n + r.ok, 0)
  const okAt = results.flatMap((r) => r.okAt).sort((a, b) => a - b)
  const slices: number[] = []
  for (let k = 0; (k + 1) * BLOCK < okAt.length; k++) slices.push((BLOCK * 1000) / (okAt[(k + 1) * BLOCK]! - okAt[k * BLOCK]!))
  const requests = results.reduce((n, r) => n + r.ok + r.limited + r.other, 0)
  const windowMs = Math.max(1000, ...results.map((r) => r.windowMs ?? 1000))
  return {
    handoff: handoffLag(results, windowMs, 10),
    latency,
    workers,
    limiter,
    ok,
    limited: results.reduce((n, r) => n + r.limited, 0),
    other: results.reduce((n, r) => n + r.other, 0),
    rate: (ok * 1000) / (last - first),
    low: Math.min(...slices),
    high: Math.max(...slices),
    spanS: (last - first) / 1000,
    roundTripsPerRequest: results.reduce((n, r) => n + r.redisRoundTrips, 0) / requests,
    cpuMsPerRequest: results.reduce((n, r) => n + r.cpuMs, 0) / requests,
    ...(error !== undefined ? { error } : {}),
  }
}

/**
 * The fleet's requests in send order: request i reuses the slot of request i - perSecond, which it
 * could reuse `windowMs` after that one left (less when its answer came quickly, never more than a
 * round trip more). Lags are split by whether the reused slot was among its worker's first
 * `perSecond` requests (the window a worker's limiter holds as cold, from the answer on).
 */
function handoffLag(results: readonly ChildResult[], windowMs: number, perSecond: number): HandoffLag {
  const all = results.flatMap((r) => r.sent.map((at, i) => ({ at, first: i < perSecond }))).sort((a, b) => a.at - b.at)
  const first: number[] = []
  const later: number[] = []
  for (let i = perSecond; i < all.length; i++) (all[i - perSecond]!.first ? first : later).push(all[i]!.at - all[i - perSecond]!.at - windowMs)
  const summary = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b)
    return { count: xs.length, medianMs: sorted[sorted.length >> 1] ?? NaN, meanMs: xs.reduce((a, b) => a + b, 0) / (xs.length || 1) }
  }
  return { firstWindow: summary(first), later: summary(later) }
}

// The limiter alone, never waiting: COST_ACCOUNTS accounts of 10 slots each, 10 requests on each.
async function cost(redis: RedisServer): Promise<LimiterCost[]> {
  const answer = { status: 200, headers: {} }
  const measure = async (limiter: string, limiters: Array<{ acquire(): Promise<(a?: typeof answer) => void>; roundTrips?: number }>, redisPid?: number): Promise<LimiterCost> => {
    const tripsBefore = limiters.reduce((s, l) => s + (l.roundTrips ?? 0), 0)
    const serverCpu = redisPid === undefined ? 0 : procCpuMs(redisPid)
    const cpu = process.cpuUsage()
    const t0 = performance.now()
    let n = 0
    for (let round = 0; round < 10; round++) {
      for (const l of limiters) {
        ;(await l.acquire())(answer)
        n++
      }
    }
    const wall = performance.now() - t0
    const used = process.cpuUsage(cpu)
    return {
      limiter,
      perRequestUs: (wall * 1000) / n,
      cpuUsPerRequest: (used.user + used.system) / n,
      roundTripsPerRequest: (limiters.reduce((s, l) => s + (l.roundTrips ?? 0), 0) - tripsBefore) / n,
      redisServerCpuUsPerRequest: redisPid === undefined ? 0 : ((procCpuMs(redisPid) - serverCpu) * 1000) / n,
    }
  }
  const inProcess = await measure('in-process RateLimiter', Array.from({ length: COST_ACCOUNTS }, () => new RateLimiter({ perSecond: 10 })))
  const redisLimiters = Array.from({ length: COST_ACCOUNTS }, (_, i) => createRedisRateLimiter({ url: redis.url, account: `cost-${i}` }))
  // One warm-up request each: connections open, scripts loaded.
  for (const l of redisLimiters) (await l.acquire())(answer)
  const viaRedis = await measure('Redis limiter', redisLimiters, redis.pid)
  await Promise.all(redisLimiters.map((l) => l.close()))
  return [inProcess, viaRedis]
}

export async function measureRedisWorkers(): Promise<RedisWorkers> {
  if (!hasRedis) return { skipped: REDIS_SKIP_NOTE, runs: [], costs: [], pass: false }
  const redis = await startRedis({ password: 'bench-redis-password' })
  const runs: WorkersRun[] = []
  const pool = await Promise.all(Array.from({ length: Math.max(...WORKER_COUNTS) }, () => startWorker(redis.url)))
  try {
    let warmed = false
    for (const latency of LATENCIES) {
      if (!WORKER_COUNTS.some((w) => LIMITERS.some((k) => selected(latency, w, k)))) continue
      const server = await startChildServer(`reference server --latency ${latency}`, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', String(latency), '--now', NOW])
      try {
        if (!warmed) {
          warmed = true
          // Warm-up, not measured: each worker walks a few pages with each limiter (code loaded, JIT warm).
          for (const limiter of LIMITERS) {
            await Promise.all(pool.map((w, i) => w.run({ baseUrl: server.url, apiKey: KEYS[i % KEYS.length], limiter, account: 'bench-warm-up', start: new Date(START_MS).toISOString(), end: new Date(START_MS + (2 * PAGE - 1) * MINUTE).toISOString(), limit: PAGE })))
            await new Promise((r) => setTimeout(r, DRAIN_MS))
          }
        }
        for (const workers of WORKER_COUNTS) {
          for (const limiter of LIMITERS) {
            if (!selected(latency, workers, limiter)) continue
            await new Promise((r) => setTimeout(r, DRAIN_MS))
            const row = await run(latency, workers, limiter, server.url, pool, `bench-${latency}-${workers}`)
            runs.push(row)
            // Each row as it comes: a long section's figures survive whatever happens later.
            console.log(`    3f row: ${rowLine(row)}`)
          }
        }
      } finally {
        await server.stop()
      }
    }
    const costs = await cost(redis)
    const pass = runs.filter((r) => r.limiter === 'redis').every((r) => r.error === undefined && r.limited === 0 && r.other === 0 && verdictOf(r.rate, r.low, r.high, RATE_TARGET) !== 'not met')
    return { runs, costs, pass }
  } finally {
    for (const worker of pool) worker.stop()
    await redis.stop()
  }
}

function rowLine(x: WorkersRun): string {
  return (
    `${String(x.latency).padStart(7)} | ${String(x.workers).padStart(7)} | ${x.limiter.padEnd(7)} | ${String(x.ok).padStart(4)} | ${String(x.limited).padStart(4)} | ${`${fmt(x.rate, 2)} (${fmt(x.low, 2)}–${fmt(x.high, 2)})`.padEnd(21)} | ${fmt(x.spanS, 1).padStart(6)} | ${fmt(x.roundTripsPerRequest, 2).padStart(15)} | ${fmt(x.cpuMsPerRequest, 2).padStart(6)}` +
    (x.other > 0 ? ` (other statuses: ${x.other})` : '') +
    (x.error !== undefined ? ` FAILED: ${x.error}` : '') +
    ` | hand-off lag ms (median/mean): first windows ${fmt(x.handoff.firstWindow.medianMs, 0)}/${fmt(x.handoff.firstWindow.meanMs, 0)} (n=${x.handoff.firstWindow.count}), later ${fmt(x.handoff.later.medianMs, 0)}/${fmt(x.handoff.later.meanMs, 0)} (n=${x.handoff.later.count})`
  )
}

const find = (r: RedisWorkers, latency: number, workers: number, limiter: Limiter) => r.runs.find((x) => x.latency === latency && x.workers === workers && x.limiter === limiter)

export function reportRedisWorkers(r: RedisWorkers): string[] {
  if (r.skipped) return [`3f. Worker processes of one account, Redis limiter vs header-learning: ${r.skipped}`]
  return [
    `3f. Worker processes of one account, each its own client: Redis limiter (one redis-server) vs header-learning (each its own RateLimiter),`,
    `    node ${CLI} serve --latency 50 / 250, 10 requests/s per account; ${REQUESTS} requests of ${PAGE} 1m candles per row, split between the workers;`,
    `    SDK defaults (8 windows in flight per worker); rate = 200s/s from first request to last answer; spread = lowest–highest rate over blocks of ${BLOCK} answers; one run per row`,
    `    latency | workers | limiter | 200s | 429s | 200s/s (spread)       | span s | Redis trips/req | worker CPU ms/req`,
    ...r.runs.map((x) => `    ${rowLine(x)}`),
    `    limiter cost per request, never waiting (${COST_ACCOUNTS} accounts x 10 requests):`,
    ...r.costs.map((c) => `      ${c.limiter.padEnd(22)} ${fmt(c.perRequestUs, 0).padStart(6)} µs wall, ${fmt(c.cpuUsPerRequest, 0).padStart(5)} µs CPU in the worker, ${fmt(c.roundTripsPerRequest, 2)} Redis round trips, ${fmt(c.redisServerCpuUsPerRequest, 0)} µs redis-server CPU`),
    `  ${verdict(r.pass)}`,
  ]
}

/** Rows of the final table: per latency and worker count, the Redis limiter's rate and 429s beside the header-learning one's; one worker's ratio. */
export function tableRedisWorkers(r: RedisWorkers): BenchRow[] {
  if (r.skipped) return [{ figure: `worker processes sharing one account through Redis: ${r.skipped}`, goal: `>= ${RATE_TARGET}/s, 0 x 429`, verdict: 'not measured' }]
  const rows: BenchRow[] = []
  for (const latency of LATENCIES) {
    for (const workers of WORKER_COUNTS) {
      const redis = find(r, latency, workers, 'redis')
      const header = find(r, latency, workers, 'header')
      if (redis === undefined || header === undefined) continue // not selected (BENCH_3F_ROWS)
      const who = `${workers} worker${workers === 1 ? '' : 's'}, --latency ${latency}`
      rows.push({
        figure: `${who}: Redis ${fmt(redis.rate, 2)} (${fmt(redis.low, 2)}–${fmt(redis.high, 2)}) req/s, ${redis.limited} x 429; header-learning ${fmt(header.rate, 2)} (${fmt(header.low, 2)}–${fmt(header.high, 2)}), ${header.limited} x 429`,
        goal: `>= ${RATE_TARGET}/s, 0 x 429`,
        verdict: redis.error !== undefined || redis.limited > 0 || redis.other > 0 ? 'not met' : verdictOf(redis.rate, redis.low, redis.high, RATE_TARGET),
      })
    }
    const redis = find(r, latency, 1, 'redis')
    const header = find(r, latency, 1, 'header')
    if (redis === undefined || header === undefined) continue
    rows.push({
      figure: `1 worker, --latency ${latency}: Redis / in-process rate ${fmt(redis.rate / header.rate, 3)} (${fmt(redis.low / header.high, 3)}–${fmt(redis.high / header.low, 3)})`,
      goal: `>= ${SAME_RATE}`,
      verdict: verdictOf(redis.rate / header.rate, redis.low / header.high, redis.high / header.low, SAME_RATE),
    })
  }
  for (const c of r.costs) rows.push({ figure: `${c.limiter}: ${fmt(c.cpuUsPerRequest, 0)} µs CPU and ${fmt(c.roundTripsPerRequest, 2)} Redis round trips per request`, goal: '-', verdict: 'info' })
  return rows
}
