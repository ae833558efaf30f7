/*
 * One round of the seeded chaos of issue 28 §4, without a test runner (the chaos test and bench
 * section chaos-follow both run it): `serve` at a fast clock, `export --follow` into SQLite (and
 * PostgreSQL when given a database, and into a second SQLite file with `--redis` when given a
 * redis-server), and an SDK follower in this process (`client.followMany`, the service's time from
 * its `Date` headers scaled by the clock rate, as `export --clock-rate` does); the schedule of
 * chaos-schedule.ts played against the service (and Redis); then the faults cleared, the followers
 * watched side by side until each is live (60 s each), stopped (SIGTERM; the SDK's by an
 * AbortSignal), and each output compared with the service's candles fetched page by page.
 */
import { join } from 'node:path'
import { createClient, type FollowSeries } from '../../../src/index.js'
import type { RedisServer } from '../../support/redis-server.js'
import { chaosSchedule, describeStep } from './chaos-schedule.js'
import { killAndRestart, outputDifferences, startServe, type Serve } from './follow-service.js'
import { sqliteRows } from '../sinks/read-output.js'
import { pgRows } from '../sinks/read-postgres.js'
import { startCli, waitFor, type CliResult, type RunningCli } from '../run-cli.js'

const MINUTE = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
/** A new 1m candle every wall second. */
export const CHAOS_RATE = 60
export const CHAOS_PAIRS = ['BTC/USD', 'ETH/USD']
const START = new Date(NOW - 5 * MINUTE).toISOString()
/** A series is live again once its newest stored candle is at most this old (service seconds): two intervals. */
const LIVE_LAG_S = 120

/** What one follower came to. */
export interface FollowerOutcome {
  name: string
  /** Exit code after SIGTERM (0 expected), or null when it died of a signal. */
  code: number | null
  stderr: string
  /** Empty when the output equals the service: see outputDifferences. */
  differences: string[]
  /** Wall ms from the faults cleared to every series live; undefined when it never was (within 60 s). */
  catchUpMs: number | undefined
  /** Candles it stored (the SDK's: received). */
  candles: number
  /** Secrets the follower was given (API key, database password) found in its stderr or its /metrics: must stay empty. */
  leaked: string[]
}

export interface ChaosRound {
  seed: number
  /** The steps played, as log lines. */
  log: string[]
  followers: FollowerOutcome[]
  /** Kills of the service in the round. */
  kills: number
  /** Kills (and restarts on the same port) of Redis in the round. */
  redisKills: number
}

interface Follower {
  name: string
  key: string
  cli: RunningCli
  metricsUrl: string
  rows(): Promise<Record<string, unknown>[]>
  secrets: string[]
}

/** The SDK follower: `client.followMany` of CHAOS_PAIRS in this process, its candles kept as rows. */
interface SdkFollower {
  key: string
  rows: Record<string, unknown>[]
  /** The largest lag of its series (service seconds); Infinity before every series has a candle. */
  maxLag(): number
  /** Aborts the follow; resolves to the error that ended it otherwise (undefined when only the abort did). */
  stop(): Promise<Error | undefined>
  /** Whether the follow ended by itself (an error) before it was stopped. */
  ended(): boolean
}

function startSdkFollower(url: string, key: string): SdkFollower {
  // Half the account's rate: the PostgreSQL follower has the other half.
  const client = createClient({ apiKey: key, baseUrl: url, rateLimit: { perSecond: 5 } })
  const controller = new AbortController()
  const series: FollowSeries[] = CHAOS_PAIRS.map((pair) => {
    const [base, quote] = pair.split('/') as [string, string]
    return { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base, quote, start: START }
  })
  const live = client.followMany(series, { signal: controller.signal, maxOutageMs: Infinity, clockRate: CHAOS_RATE })
  const rows: Record<string, unknown>[] = []
  let done = false
  const loop = (async (): Promise<Error | undefined> => {
    try {
      for await (const { series: id, candle } of live) rows.push({ ...candle, exchange: id.exchange, base: id.base, quote: id.quote })
      return new Error('the follow ended by itself')
    } catch (error) {
      return controller.signal.aborted ? undefined : (error as Error)
    } finally {
      done = true
    }
  })()
  return {
    key,
    rows,
    maxLag: () => {
      const lags = live.seriesStates().map((s) => s.lagMs)
      return lags.length === CHAOS_PAIRS.length && lags.every((l) => l !== undefined) ? Math.max(...(lags as number[])) / 1000 : Infinity
    },
    ended: () => done,
    stop: () => {
      controller.abort()
      return loop
    },
  }
}

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`POST ${url} ${JSON.stringify(body)}: ${res.status} ${await res.text()}`)
}

/** The largest lag of a follower's series (service seconds) from its /metrics; Infinity before known. */
async function maxLag(metricsUrl: string): Promise<number> {
  try {
    const text = await (await fetch(metricsUrl)).text()
    const lags = [...text.matchAll(/^market_candles_follow_lag_seconds\{series="[^"]+"\} (\S+)$/gm)].map((m) => Number(m[1]))
    return lags.length === CHAOS_PAIRS.length ? Math.max(...lags) : Infinity
  } catch {
    return Infinity
  }
}

/**
 * Runs one round of `chaosMs` with `seed` on a free `port`; `dir` holds the SQLite outputs;
 * `postgresUrl` (a fresh database) adds a PostgreSQL follower; `redis` (running, killed and started
 * again by the schedule) adds a follower with `--redis`. Kills what it started before resolving
 * (Redis is left running).
 */
export async function runChaosRound(options: { seed: number; chaosMs: number; port: number; dir: string; postgresUrl?: string; redis?: RedisServer }): Promise<ChaosRound> {
  const { seed, chaosMs, port, redis } = options
  const log: string[] = []
  const extra = ['--publish-delay', '1000']
  const services: Serve[] = []
  const followers: Follower[] = []
  let kills = 0
  let redisKills = 0
  let redisBack: Promise<void> = Promise.resolve()
  let sdk: SdkFollower | undefined
  let serve = await startServe(port, NOW, CHAOS_RATE, extra)
  services.push(serve)
  // Each follower takes half of its account's 10 requests a second: two followers to an account.
  const start = (out: string, key: string, more: string[] = []) =>
    startCli(
      ['export', '--base-url', serve.url, '--exchange', 'bitstamp', ...CHAOS_PAIRS.flatMap((p) => ['--pair', p]), '--interval', '1m', '--start', START,
        '--follow', '--clock-rate', String(CHAOS_RATE), '--out', out, '--progress-interval', '5', '--metrics-port', '0', '--rate-limit', '5', ...more],
      { MARKET_CANDLES_API_KEY: key },
      chaosMs + 180_000,
    )
  try {
    const sqlite = join(options.dir, `chaos-${seed}.sqlite`)
    followers.push({ name: 'sqlite', key: 'demo-enterprise-key', cli: start(sqlite, 'demo-enterprise-key'), metricsUrl: '', rows: async () => sqliteRows(sqlite, 'exchange_candles'), secrets: ['demo-enterprise-key'] })
    if (options.postgresUrl !== undefined) {
      const db = options.postgresUrl
      // One account each (pro, enterprise): the two followers do not share a rate limit.
      followers.push({ name: 'postgres', key: 'demo-pro-key', cli: start(db, 'demo-pro-key'), metricsUrl: '', rows: () => pgRows(db, 'exchange'), secrets: ['demo-pro-key', new URL(db).password].filter(Boolean) })
    }
    if (redis !== undefined) {
      // The enterprise account's second key: its half of the rate shared through Redis.
      const out = join(options.dir, `chaos-${seed}-redis.sqlite`)
      const key = 'demo-enterprise-key-2'
      followers.push({ name: 'sqlite --redis', key, cli: start(out, key, ['--redis', redis.url]), metricsUrl: '', rows: async () => sqliteRows(out, 'exchange_candles'), secrets: [key] })
    }
    for (const f of followers) {
      await waitFor(() => /following 2 series/.test(f.cli.output().stderr) || f.cli.child.exitCode !== null, 60_000, `${f.name} following`)
      const url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(f.cli.output().stderr)?.[1]
      if (url === undefined || f.cli.child.exitCode !== null) throw new Error(`${f.name} did not start following: ${f.cli.output().stderr.slice(-2000)}`)
      f.metricsUrl = url
    }
    sdk = startSdkFollower(serve.url, 'demo-pro-key')

    const began = Date.now()
    for (const step of chaosSchedule(seed, chaosMs, { redis: redis !== undefined })) {
      await new Promise((r) => setTimeout(r, Math.max(0, began + step.atMs - Date.now())))
      log.push(describeStep(step))
      if (step.kind === 'fault') await post(`${serve.url}/_mock/faults`, step.fault)
      else if (step.kind === 'clock-jump') await post(`${serve.url}/_mock/clock`, { advance_ms: step.advanceMs })
      else if (step.kind === 'redis-kill') {
        // Started again in the background: the rest of the schedule goes on meanwhile.
        await redis!.kill()
        redisKills++
        const at = Date.now()
        redisBack = new Promise((r) => setTimeout(r, step.downMs)).then(() => redis!.restart())
        redisBack.then(() => log.push(`+${Date.now() - began} ms: Redis started again (down ${Date.now() - at} ms)`), () => {})
      } else {
        serve = await killAndRestart(serve, port, CHAOS_RATE, step.downMs, extra)
        services.push(serve)
        kills++
      }
    }
    await redisBack
    await fetch(`${serve.url}/_mock/faults`, { method: 'DELETE' })
    const cleared = Date.now()
    log.push(`+${cleared - began} ms: faults cleared`)

    const outcomes: FollowerOutcome[] = []
    // Every follower has the whole 60 s from the faults cleared: they are watched side by side, so
    // one that never catches up does not use up the time of those watched after it.
    const catchUp = new Map<Follower, number>()
    let sdkCatchUp: number | undefined
    for (;;) {
      for (const f of followers) if (!catchUp.has(f) && f.cli.child.exitCode === null && (await maxLag(f.metricsUrl)) <= LIVE_LAG_S) catchUp.set(f, Date.now() - cleared)
      if (sdkCatchUp === undefined && !sdk.ended() && sdk.maxLag() <= LIVE_LAG_S) sdkCatchUp = Date.now() - cleared
      const waiting = followers.some((f) => !catchUp.has(f) && f.cli.child.exitCode === null) || (sdkCatchUp === undefined && !sdk.ended())
      if (!waiting || Date.now() >= cleared + 60_000) break
      await new Promise((r) => setTimeout(r, 250))
    }
    // No secret in any metric's label or value either.
    const scraped = new Map<Follower, string>()
    for (const f of followers) scraped.set(f, await fetch(f.metricsUrl).then((r) => r.text(), () => ''))
    for (const f of followers) if (f.cli.child.exitCode === null) f.cli.child.kill('SIGTERM')
    for (const f of followers) {
      const r: CliResult = await f.cli.result
      const rows = await f.rows()
      outcomes.push({
        name: f.name,
        code: r.code,
        stderr: r.stderr,
        candles: rows.length,
        differences: await outputDifferences(serve.url, f.key, rows, CHAOS_PAIRS, START),
        catchUpMs: catchUp.get(f),
        leaked: f.secrets.filter((secret) => r.stderr.includes(secret) || scraped.get(f)!.includes(secret)).map((s) => `${s.slice(0, 3)}…`),
      })
    }
    const sdkError = await sdk.stop()
    outcomes.push({
      name: 'sdk followMany',
      code: sdkError === undefined ? 0 : 1,
      stderr: sdkError === undefined ? '' : `the SDK follow ended before it was stopped: ${sdkError.stack ?? sdkError.message}`,
      candles: sdk.rows.length,
      differences: await outputDifferences(serve.url, sdk.key, sdk.rows, CHAOS_PAIRS, START),
      catchUpMs: sdkCatchUp,
      leaked: [],
    })
    return { seed, log, followers: outcomes, kills, redisKills }
  } finally {
    await sdk?.stop()
    await redisBack.catch(() => {})
    for (const f of followers) if (f.cli.child.exitCode === null && f.cli.child.signalCode === null) f.cli.child.kill('SIGKILL')
    await Promise.all(followers.map((f) => f.cli.result))
    for (const s of services) await s.kill()
  }
}

/** A round in a few lines: the steps of each kind, then per follower its candles, catch-up and outage lines. */
export function summarizeRound(round: ChaosRound): string {
  const faults = round.log.filter((l) => l.includes(': fault ')).length
  const jumps = round.log.filter((l) => l.includes('clock jumps')).length
  const count = (stderr: string, re: RegExp) => stderr.split('\n').filter((l) => re.test(l)).length
  return [
    `seed ${round.seed}: ${faults} faults, ${jumps} clock jumps, ${round.kills} kill of the service, ${round.redisKills} of Redis`,
    ...round.followers.map(
      (f) =>
        `  ${f.name}: exit ${f.code}, ${f.candles} candles, ${f.differences.length} differences, live ${f.catchUpMs === undefined ? 'never' : `${(f.catchUpMs / 1000).toFixed(1)} s`} after the faults cleared` +
        (f.name.startsWith('sdk') ? '' : `, ${count(f.stderr, /export: outage( over)?: /)} outage lines, ${count(f.stderr, /export: Redis (fails|answers again)/)} Redis lines`),
    ),
  ].join('\n')
}

/** A round as the lines a failure shows: the schedule and each follower's end of stderr. */
export function describeRound(round: ChaosRound): string {
  return [`schedule (seed ${round.seed}):`, ...round.log.map((l) => `  ${l}`), ...round.followers.map((f) => `--- ${f.name}: exit ${f.code}, differences ${f.differences.length} ---\n${f.stderr.slice(-3000)}`)].join('\n')
}
