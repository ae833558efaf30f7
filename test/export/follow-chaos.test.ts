/*
 * Issue 28 §4, seeded chaos: `market-candles serve` at a fast clock, `export --follow` into SQLite
 * (and PostgreSQL when its binaries exist), faults of every kind through POST /_mock/faults, the
 * service killed and started again on the same port, clock jumps. At the end each output equals
 * the service's series fetched page by page: no gap, no duplicate. The seed (CHAOS_SEED, else
 * random) is printed and named in any failure: CHAOS_SEED=N replays the same schedule.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { freePort } from '../support/free-port.js'
import { POSTGRES_MISSING, startPostgres, type RunningPostgres } from '../support/postgres-server.js'
import { chaosSchedule, chaosSeed, describeStep, type ChaosStep } from './chaos-schedule.js'
import { expectOutputEqualsService, killAndRestart, startServe, type Serve } from './follow-service.js'
import { sqliteRows } from './read-output.js'
import { freshDatabase, pgRows } from './read-postgres.js'
import { startCli, waitFor, type RunningCli } from './run-cli.js'

const SEED = chaosSeed()
const CHAOS_MS = 20_000
const MINUTE = 60_000
const NOW = Date.parse('2026-01-01T00:00:00Z')
const RATE = 60
const START = new Date(NOW - 5 * MINUTE).toISOString()
const PAIRS = ['BTC/USD', 'ETH/USD']
const REPLAY = `CHAOS_SEED=${SEED} npx vitest run test/export/follow-chaos.test.ts`

let dir: string
let pg: RunningPostgres | undefined
const services: Serve[] = []
const children: RunningCli[] = []

beforeAll(async () => {
  console.log(`chaos seed ${SEED} (replay: ${REPLAY})`)
  dir = mkdtempSync(join(tmpdir(), 'export-follow-chaos-'))
  if (POSTGRES_MISSING === undefined) pg = await startPostgres()
  else console.warn(`PostgreSQL part SKIPPED: ${POSTGRES_MISSING}`)
})
afterAll(async () => {
  for (const cli of children) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
  await Promise.all(children.map((cli) => cli.result))
  for (const s of services) await s.kill()
  await pg?.destroy()
  rmSync(dir, { recursive: true, force: true })
})

/** One follower: its output, its key (one account each, so they do not share a rate limit), its process. */
interface Follower {
  name: string
  key: string
  cli: RunningCli
  metricsUrl: string
  rows(): Promise<Record<string, unknown>[]>
  secret?: string
}

/** `export --follow` of PAIRS into `out` with metrics on a free port. */
function startFollower(url: string, out: string, key: string): RunningCli {
  const cli = startCli(
    ['export', '--base-url', url, '--exchange', 'bitstamp', ...PAIRS.flatMap((p) => ['--pair', p]), '--interval', '1m', '--start', START,
      '--follow', '--clock-rate', String(RATE), '--out', out, '--progress-interval', '2', '--metrics-port', '0'],
    { MARKET_CANDLES_API_KEY: key },
    240_000,
  )
  children.push(cli)
  return cli
}

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`POST ${url} ${JSON.stringify(body)}: ${res.status} ${await res.text()}`)
}

/** The largest lag of a follower's series, in service seconds, from its /metrics; Infinity before known. */
async function maxLag(follower: Follower): Promise<number> {
  const text = await (await fetch(follower.metricsUrl)).text()
  const lags = [...text.matchAll(/^market_candles_follow_lag_seconds\{series="[^"]+"\} (\S+)$/gm)].map((m) => Number(m[1]))
  return lags.length === PAIRS.length ? Math.max(...lags) : Infinity
}

test(
  `seeded chaos (seed ${SEED}): faults of every kind, the service killed and restarted on the same port, clock jumps; each follower's output equals the service at the end, no gap, no duplicate`,
  async () => {
    const log: string[] = []
    const port = await freePort()
    let serve = await startServe(port, NOW, RATE, ['--publish-delay', '1000'])
    services.push(serve)
    const followers: Follower[] = []
    const sqlite = join(dir, 'chaos.sqlite')
    followers.push({ name: 'sqlite', key: 'demo-enterprise-key', cli: startFollower(serve.url, sqlite, 'demo-enterprise-key'), metricsUrl: '', rows: async () => sqliteRows(sqlite, 'exchange_candles') })
    if (pg) {
      const db = await freshDatabase(pg)
      followers.push({ name: 'postgres', key: 'demo-pro-key', cli: startFollower(serve.url, db, 'demo-pro-key'), metricsUrl: '', rows: () => pgRows(db, 'exchange'), secret: new URL(db).password })
    }
    const failure = (what: string) =>
      `chaos seed ${SEED}: ${what}\nreplay: ${REPLAY}\nschedule:\n  ${log.join('\n  ')}\n${followers.map((f) => `--- ${f.name} stderr (end) ---\n${f.cli.output().stderr.slice(-3000)}`).join('\n')}`
    try {
      for (const f of followers) {
        await waitFor(() => /following 2 series/.test(f.cli.output().stderr) || f.cli.child.exitCode !== null, 40_000, `${f.name} following`)
        expect(f.cli.child.exitCode, failure(`${f.name} exited`)).toBeNull()
        f.metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(f.cli.output().stderr)![1]!
      }

      const steps: ChaosStep[] = chaosSchedule(SEED, CHAOS_MS)
      const began = Date.now()
      for (const step of steps) {
        await new Promise((r) => setTimeout(r, Math.max(0, began + step.atMs - Date.now())))
        log.push(describeStep(step))
        if (step.kind === 'fault') await post(`${serve.url}/_mock/faults`, step.fault)
        else if (step.kind === 'clock-jump') await post(`${serve.url}/_mock/clock`, { advance_ms: step.advanceMs })
        else {
          serve = await killAndRestart(serve, port, RATE, step.downMs, ['--publish-delay', '1000'])
          services.push(serve)
        }
      }
      const cleared = await fetch(`${serve.url}/_mock/faults`, { method: 'DELETE' })
      expect(cleared.status).toBe(204)
      log.push(`+${Date.now() - began} ms: faults cleared`)

      // Every follower back at the edge: each series' newest stored candle at most two intervals old.
      for (const f of followers) {
        expect(f.cli.child.exitCode, failure(`${f.name} exited during the chaos`)).toBeNull()
        const until = Date.now() + 60_000
        let lag = Infinity
        while (Date.now() < until && (lag = await maxLag(f)) > 120) await new Promise((r) => setTimeout(r, 250))
        expect(lag, failure(`${f.name} did not catch up within 60 s after the chaos (lag ${lag} s)`)).toBeLessThanOrEqual(120)
      }
      for (const f of followers) f.cli.child.kill('SIGTERM')
      for (const f of followers) {
        const r = await f.cli.result
        expect(r.code, failure(`${f.name}: SIGTERM should exit 0`)).toBe(0)
        expect(r.stderr, failure(`${f.name}: the API key was printed`)).not.toContain(f.key)
        if (f.secret) expect(r.stderr, failure(`${f.name}: the database password was printed`)).not.toContain(f.secret)
        await expectOutputEqualsService(serve.url, f.key, await f.rows(), PAIRS, START, failure(`${f.name}: the output differs from the service`))
      }
    } catch (error) {
      if (error instanceof Error && !error.message.includes(`chaos seed ${SEED}`)) error.message = failure(error.message)
      throw error
    }
  },
  240_000,
)
