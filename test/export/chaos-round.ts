/*
 * One round of the seeded chaos of issue 28 §4, without a test runner (the chaos test and bench
 * section chaos-follow both run it): `serve` at a fast clock, `export --follow` into SQLite (and
 * PostgreSQL when given a database), the schedule of chaos-schedule.ts played against the service,
 * then the faults cleared, each follower waited for until live, stopped with SIGTERM, and its
 * output compared with the service's candles fetched page by page.
 */
import { join } from 'node:path'
import { chaosSchedule, describeStep } from './chaos-schedule.js'
import { killAndRestart, outputDifferences, startServe, type Serve } from './follow-service.js'
import { sqliteRows } from './read-output.js'
import { pgRows } from './read-postgres.js'
import { startCli, waitFor, type CliResult, type RunningCli } from './run-cli.js'

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
}

interface Follower {
  name: string
  key: string
  cli: RunningCli
  metricsUrl: string
  rows(): Promise<Record<string, unknown>[]>
  secrets: string[]
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
 * Runs one round of `chaosMs` with `seed` on a free `port`; `dir` holds the SQLite output;
 * `postgresUrl` (a fresh database) adds a PostgreSQL follower. Kills what it started before resolving.
 */
export async function runChaosRound(options: { seed: number; chaosMs: number; port: number; dir: string; postgresUrl?: string }): Promise<ChaosRound> {
  const { seed, chaosMs, port } = options
  const log: string[] = []
  const extra = ['--publish-delay', '1000']
  const services: Serve[] = []
  const followers: Follower[] = []
  let kills = 0
  let serve = await startServe(port, NOW, CHAOS_RATE, extra)
  services.push(serve)
  const start = (out: string, key: string) =>
    startCli(
      ['export', '--base-url', serve.url, '--exchange', 'bitstamp', ...CHAOS_PAIRS.flatMap((p) => ['--pair', p]), '--interval', '1m', '--start', START,
        '--follow', '--clock-rate', String(CHAOS_RATE), '--out', out, '--progress-interval', '5', '--metrics-port', '0'],
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
    for (const f of followers) {
      await waitFor(() => /following 2 series/.test(f.cli.output().stderr) || f.cli.child.exitCode !== null, 60_000, `${f.name} following`)
      const url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(f.cli.output().stderr)?.[1]
      if (url === undefined || f.cli.child.exitCode !== null) throw new Error(`${f.name} did not start following: ${f.cli.output().stderr.slice(-2000)}`)
      f.metricsUrl = url
    }

    const began = Date.now()
    for (const step of chaosSchedule(seed, chaosMs)) {
      await new Promise((r) => setTimeout(r, Math.max(0, began + step.atMs - Date.now())))
      log.push(describeStep(step))
      if (step.kind === 'fault') await post(`${serve.url}/_mock/faults`, step.fault)
      else if (step.kind === 'clock-jump') await post(`${serve.url}/_mock/clock`, { advance_ms: step.advanceMs })
      else {
        serve = await killAndRestart(serve, port, CHAOS_RATE, step.downMs, extra)
        services.push(serve)
        kills++
      }
    }
    await fetch(`${serve.url}/_mock/faults`, { method: 'DELETE' })
    const cleared = Date.now()
    log.push(`+${cleared - began} ms: faults cleared`)

    const outcomes: FollowerOutcome[] = []
    const catchUp = new Map<Follower, number | undefined>()
    for (const f of followers) {
      let lag = Infinity
      while (f.cli.child.exitCode === null && Date.now() < cleared + 60_000 && (lag = await maxLag(f.metricsUrl)) > LIVE_LAG_S) await new Promise((r) => setTimeout(r, 250))
      catchUp.set(f, lag <= LIVE_LAG_S ? Date.now() - cleared : undefined)
    }
    // No secret in any metric's label or value either.
    const scraped = new Map<Follower, string>()
    for (const f of followers) scraped.set(f, await fetch(f.metricsUrl).then((r) => r.text(), () => ''))
    for (const f of followers) if (f.cli.child.exitCode === null) f.cli.child.kill('SIGTERM')
    for (const f of followers) {
      const r: CliResult = await f.cli.result
      outcomes.push({
        name: f.name,
        code: r.code,
        stderr: r.stderr,
        differences: await outputDifferences(serve.url, f.key, await f.rows(), CHAOS_PAIRS, START),
        catchUpMs: catchUp.get(f),
        leaked: f.secrets.filter((secret) => r.stderr.includes(secret) || scraped.get(f)!.includes(secret)).map((s) => `${s.slice(0, 3)}…`),
      })
    }
    return { seed, log, followers: outcomes, kills }
  } finally {
    for (const f of followers) if (f.cli.child.exitCode === null && f.cli.child.signalCode === null) f.cli.child.kill('SIGKILL')
    await Promise.all(followers.map((f) => f.cli.result))
    for (const s of services) await s.kill()
  }
}

/** A round as the lines a failure shows: the schedule and each follower's end of stderr. */
export function describeRound(round: ChaosRound): string {
  return [`schedule (seed ${round.seed}):`, ...round.log.map((l) => `  ${l}`), ...round.followers.map((f) => `--- ${f.name}: exit ${f.code}, differences ${f.differences.length} ---\n${f.stderr.slice(-3000)}`)].join('\n')
}
