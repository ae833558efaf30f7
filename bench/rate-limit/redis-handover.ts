/**
 * Section 3g: one account, two Redis fleets one after the other (issue 35 §2). Eight worker
 * processes walk behind `serve --latency 50` (the fast path), then at once eight new limiters walk
 * behind `serve --latency 250` (a slower path) on the same account, whose Redis key never idles:
 * the second fleet must not be timed with the first one's round trips for long. Its rate counts
 * 200s from 10 s after its first request to its last answer; the rate over its first 10 s and over
 * the whole walk are shown beside. REPEATS runs, each on an account of its own, interleaved with
 * nothing (the worker processes and redis-server start once).
 */
import { hasRedis, REDIS_SKIP_NOTE, startRedis } from '../../test/support/redis-server.js'
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { MINUTE, NOW } from '../support/fixtures.js'
import { fmt, verdict, withSpread } from '../support/stats.js'
import { startWorker, type ChildResult, type Worker } from './redis-workers.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

const WORKERS = 8
const PAGE = 100
/** Requests of the fast fleet, then of the slow one (10/s: about 8 s, then 20 s). */
const FAST_REQUESTS = 80
const SLOW_REQUESTS = 200
/** The goal: the slow fleet's rate from this long after its start. */
const WITHIN_MS = 10_000
const RATE_TARGET = 9.5
const REPEATS = 3
const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2']
const START_MS = Date.UTC(2022, 0, 1)
/**
 * Before each run: the service counts every key of the demo account as one account, whatever the
 * Redis account is called, so the previous run's requests must leave its one-second window first.
 */
const DRAIN_MS = 1500

export interface HandoverRun {
  /** The fast fleet's rate, 200s per second. */
  fastRate: number
  /** The slow fleet: over its first WITHIN_MS, from then to its end, and over all of it. */
  early: number
  late: number
  whole: number
  /** 429s of the fast fleet, of the slow one. */
  fastLimited: number
  limited: number
  other: number
  error?: string
}

export interface RedisHandover {
  skipped?: string
  runs: HandoverRun[]
  pass: boolean
}

async function fleet(pool: readonly Worker[], baseUrl: string, account: string, requests: number, startMs: number): Promise<ChildResult[]> {
  const pages = Math.floor(requests / pool.length)
  return Promise.all(
    pool.map((worker, i) => {
      const from = startMs + i * pages * PAGE * MINUTE
      return worker.run({ baseUrl, apiKey: KEYS[i % KEYS.length], limiter: 'redis', account, start: new Date(from).toISOString(), end: new Date(from + (pages * PAGE - 1) * MINUTE).toISOString(), limit: PAGE })
    }),
  )
}

function rateOf(okAt: readonly number[], from: number, to: number): number {
  return (okAt.filter((t) => t > from && t <= to).length * 1000) / (to - from)
}

export async function measureRedisHandover(): Promise<RedisHandover> {
  if (!hasRedis) return { skipped: REDIS_SKIP_NOTE, runs: [], pass: false }
  const redis = await startRedis({ password: 'bench-redis-password' })
  const pool = await Promise.all(Array.from({ length: WORKERS }, () => startWorker(redis.url)))
  const fast = await startChildServer('reference server --latency 50', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', '50', '--now', NOW])
  const slow = await startChildServer('reference server --latency 250', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', '250', '--now', NOW])
  const runs: HandoverRun[] = []
  try {
    // Warm-up, not measured: code loaded, JIT warm, connections open.
    await fleet(pool, fast.url, 'bench-handover-warm-up', 2 * WORKERS, START_MS)
    for (let r = 0; r < REPEATS; r++) {
      const account = `bench-handover-${process.pid}-${r}`
      await new Promise((resolve) => setTimeout(resolve, DRAIN_MS))
      const first = await fleet(pool, fast.url, account, FAST_REQUESTS, START_MS)
      const second = await fleet(pool, slow.url, account, SLOW_REQUESTS, START_MS)
      const error = [...first, ...second].find((x) => x.error !== undefined)?.error
      const okFast = first.flatMap((x) => x.okAt)
      const okAt = second.flatMap((x) => x.okAt).sort((a, b) => a - b)
      const start = Math.min(...second.map((x) => x.firstSent))
      const end = Math.max(...second.map((x) => x.lastAnswer))
      const run: HandoverRun = {
        fastRate: (okFast.length * 1000) / (Math.max(...first.map((x) => x.lastAnswer)) - Math.min(...first.map((x) => x.firstSent))),
        early: rateOf(okAt, start, start + WITHIN_MS),
        late: rateOf(okAt, start + WITHIN_MS, end),
        whole: rateOf(okAt, start, end),
        fastLimited: first.reduce((n, x) => n + x.limited, 0),
        limited: second.reduce((n, x) => n + x.limited, 0),
        other: [...first, ...second].reduce((n, x) => n + x.other, 0),
        ...(error !== undefined ? { error } : {}),
      }
      runs.push(run)
      console.log(`    3g run: ${runLine(run)}`)
    }
  } finally {
    for (const worker of pool) worker.stop()
    await Promise.all([fast.stop(), slow.stop()])
    await redis.stop()
  }
  const pass = runs.every((x) => x.error === undefined && x.limited === 0 && x.fastLimited === 0 && x.other === 0) && verdictOfRuns(runs.map((x) => x.late), RATE_TARGET) !== 'not met'
  return { runs, pass }
}

function runLine(x: HandoverRun): string {
  return (
    `fast fleet ${fmt(x.fastRate, 2)}/s, ${x.fastLimited} × 429; then the slow fleet: first ${WITHIN_MS / 1000} s ${fmt(x.early, 2)}/s, after ${fmt(x.late, 2)}/s, whole ${fmt(x.whole, 2)}/s; ${x.limited} × 429` +
    (x.other > 0 ? `, other statuses ${x.other}` : '') +
    (x.error !== undefined ? ` FAILED: ${x.error}` : '')
  )
}

export function reportRedisHandover(r: RedisHandover): string[] {
  if (r.skipped) return [`3g. Redis fleets one after the other on one account: ${r.skipped}`]
  return [
    `3g. One account, ${WORKERS} Redis-limited workers behind node ${CLI} serve --latency 50 (${FAST_REQUESTS} requests), then at once ${WORKERS} new ones behind --latency 250 (${SLOW_REQUESTS} requests);`,
    `    the slow fleet's rate from ${WITHIN_MS / 1000} s after its first request to its last answer; ${REPEATS} runs, an account each`,
    ...r.runs.map((x) => `    ${runLine(x)}`),
    `  ${verdict(r.pass)}`,
  ]
}

export function tableRedisHandover(r: RedisHandover): BenchRow[] {
  const goal = `>= ${RATE_TARGET}/s, 0 x 429`
  if (r.skipped) return [{ figure: `Redis fleet behind a slower path right after a faster one: ${r.skipped}`, goal, verdict: 'not measured' }]
  const failed = r.runs.some((x) => x.error !== undefined || x.limited > 0 || x.fastLimited > 0 || x.other > 0)
  const late = r.runs.map((x) => x.late)
  return [
    {
      figure: `${WORKERS} Redis workers behind --latency 250 right after ${WORKERS} behind --latency 50, one account: ${withSpread(late)} req/s from ${WITHIN_MS / 1000} s after their start (first ${WITHIN_MS / 1000} s ${withSpread(r.runs.map((x) => x.early))}, whole walk ${withSpread(r.runs.map((x) => x.whole))}); 429s of the slow fleet ${r.runs.map((x) => x.limited).join(', ')}, of the fast one ${r.runs.map((x) => x.fastLimited).join(', ')}`,
      goal,
      verdict: failed ? 'not met' : verdictOfRuns(late, RATE_TARGET),
    },
  ]
}
