/*
 * The seeded chaos of issue 28 §4, shared by the chaos test (test/export/follow/follow-chaos.test.ts) and
 * the longer bench section (bench/follow/chaos-follow.ts): a schedule of faults of every kind (POST
 * /_mock/faults), clock jumps and one kill of the service, drawn from a seed, so a failing seed
 * replays the same schedule (the timing on a loaded machine still varies).
 */

import { seededRandom } from '../../../mocks/core/faults/seeded-random.js'

/** The seed of a chaos run: CHAOS_SEED, or a random one (printed by the caller). */
export function chaosSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.CHAOS_SEED
  if (given !== undefined && given !== '') {
    if (!/^\d+$/.test(given)) throw new Error(`CHAOS_SEED must be a whole number, got '${given}'`)
    return Number(given)
  }
  return Math.floor(Math.random() * 2 ** 31)
}

/** One step of the chaos: at `atMs` after the start, a fault, a clock jump, the kill of the service, or the kill of Redis. */
export type ChaosStep =
  | { atMs: number; kind: 'fault'; fault: Record<string, unknown> }
  | { atMs: number; kind: 'clock-jump'; advanceMs: number }
  | { atMs: number; kind: 'kill'; downMs: number }
  | { atMs: number; kind: 'redis-kill'; downMs: number }

const CANDLES = '/v1/exchange_ohlcv'

/** A random fault of one of the reference service's kinds, on candle requests, for a few of them. */
function randomFault(random: () => number, kind: string): Record<string, unknown> {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
  const common = { path: CANDLES, probability: Math.round((0.15 + random() * 0.35) * 100) / 100, times: int(2, 8), seed: int(1, 1_000_000) }
  switch (kind) {
    case 'status':
      return { ...common, kind, status: [500, 502, 503, 504][int(0, 3)] }
    case 'rate-limited':
      return { ...common, kind: 'status', status: 429, headers: { 'Retry-After': '1' }, body: { detail: 'Rate limit exceeded' } }
    case 'truncate':
      return { ...common, kind, after_bytes: int(0, 400) }
    case 'slow_body':
      return { ...common, kind, duration_ms: int(200, 1500) }
    case 'latency':
      return { ...common, kind, latency_ms: { dist: 'uniform', min_ms: 0, max_ms: int(100, 1200) } }
    case 'hang':
      // Held until the kill of the service cuts it (scheduled before it only): at most one at a time.
      return { ...common, kind, times: 1 }
    default:
      return { ...common, kind }
  }
}

const KINDS = ['status', 'rate-limited', 'network_error', 'reset', 'truncate', 'slow_body', 'latency', 'hang']

/**
 * A schedule over `durationMs`: a step every 0.5-2.5 s, each a fault of a random kind (every kind
 * at least once), now and then a clock jump forward (1-4 service minutes), and one kill of the
 * service (down 2-6 s) in the middle third. Hangs come only before the kill, which releases them.
 * With `redis`, also one kill of Redis (down 1-4 s, then started again empty on the same port) at a
 * random moment of the first 80 %, drawn from its own generator so the rest of a seed's schedule is
 * the same with or without Redis.
 */
export function chaosSchedule(seed: number, durationMs: number, options: { redis?: boolean } = {}): ChaosStep[] {
  const random = seededRandom(seed)
  const steps: ChaosStep[] = []
  const killAt = Math.round(durationMs / 3 + random() * (durationMs / 3))
  steps.push({ atMs: killAt, kind: 'kill', downMs: 2000 + Math.round(random() * 4000) })
  const unused = new Set(KINDS)
  for (let at = 300 + random() * 700; at < durationMs; at += 500 + random() * 2000) {
    if (random() < 0.15) {
      steps.push({ atMs: Math.round(at), kind: 'clock-jump', advanceMs: 60_000 * (1 + Math.floor(random() * 4)) })
      continue
    }
    // Every kind once first (in a random order), then any.
    const pool = [...(unused.size > 0 ? unused : KINDS)].filter((k) => k !== 'hang' || at < killAt - 500)
    if (pool.length === 0) continue
    const kind = pool[Math.floor(random() * pool.length)]!
    unused.delete(kind)
    steps.push({ atMs: Math.round(at), kind: 'fault', fault: randomFault(random, kind) })
  }
  if (options.redis) {
    const ofRedis = seededRandom(seed ^ 0x5bd1e995)
    steps.push({ atMs: Math.round(500 + ofRedis() * (durationMs * 0.8 - 500)), kind: 'redis-kill', downMs: 1000 + Math.round(ofRedis() * 3000) })
  }
  return steps.sort((a, b) => a.atMs - b.atMs)
}

/** A step as a log line of the run. */
export function describeStep(step: ChaosStep): string {
  if (step.kind === 'kill') return `+${step.atMs} ms: kill the service, start it again ${step.downMs} ms later on the same port`
  if (step.kind === 'redis-kill') return `+${step.atMs} ms: kill Redis, start it again ${step.downMs} ms later on the same port (empty)`
  if (step.kind === 'clock-jump') return `+${step.atMs} ms: clock jumps ${step.advanceMs / 60_000} min forward`
  return `+${step.atMs} ms: fault ${JSON.stringify(step.fault)}`
}
