/**
 * Section 7, `market-candles conformance` against `market-candles serve` with every demo plan's key:
 * every rule passes, within the request budget, in under 60 s (the target). The run time is
 * set by the command's pacing (8 counted requests a second), so the spread says how much the
 * machine's load adds. The server and each run are child processes of the built CLI.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { NOW } from '../support/fixtures.js'
import { spread, verdict, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

export const CONFORMANCE_SECONDS_TARGET = 60
const ROUNDS = 3
const KEYS = { main: 'demo-enterprise-key', free: 'demo-free-key', pro: 'demo-pro-key', enterprise: 'demo-enterprise-key-2' }

interface Round {
  seconds: number
  code: number
  rules: number
  passed: number
  used: number
  budget: number
  counted: number
}

export interface ConformanceResult {
  rounds: Round[]
  pass: boolean
  rows: BenchRow[]
}

export async function measureConformance(): Promise<ConformanceResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-conformance-'))
  for (const [name, key] of Object.entries(KEYS)) writeFileSync(join(dir, name), `${key}\n`)
  const server = await startChildServer('serve', [CLI, 'serve', '--port', '0', '--now', NOW])
  const rounds: Round[] = []
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const report = join(dir, `report-${i}.json`)
      const args = [CLI, 'conformance', '--base-url', server.url, '--api-key-file', join(dir, 'main'), ...['free', 'pro', 'enterprise'].flatMap((p) => ['--key-file', `${p}=${join(dir, p)}`]), '--json', report]
      const started = performance.now()
      const child = spawn(process.execPath, args, { stdio: 'ignore' })
      const [code] = (await once(child, 'exit')) as [number]
      const seconds = (performance.now() - started) / 1000
      const json = JSON.parse(readFileSync(report, 'utf8'))
      rounds.push({ seconds, code, rules: json.rules.length, passed: json.summary.pass, used: json.requests.used, budget: json.requests.budget, counted: json.requests.counted })
    }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  const times = rounds.map((r) => r.seconds)
  const { low, high } = spread(times)
  const allPass = rounds.every((r) => r.code === 0 && r.passed === r.rules && r.used <= r.budget)
  const last = rounds.at(-1)!
  const timeVerdict = verdictOfRuns(times, CONFORMANCE_SECONDS_TARGET, true)
  const rows: BenchRow[] = [
    {
      figure: `conformance against serve, every demo plan's key: ${withSpread(times, 1, ' s')} over ${ROUNDS} runs; ${last.passed}/${last.rules} rules pass, ${last.used} requests of ${last.budget}`,
      goal: `every rule, <= ${CONFORMANCE_SECONDS_TARGET} s`,
      verdict: allPass ? timeVerdict : 'not met',
    },
  ]
  return { rounds, pass: allPass && timeVerdict !== 'not met', rows }
}

export function reportConformance(r: ConformanceResult): string[] {
  return [
    `7. market-candles conformance against serve (every demo plan's key; ${ROUNDS} runs, one after another)`,
    ...r.rounds.map((x, i) => `   run ${i + 1}: ${x.seconds.toFixed(1)} s, exit ${x.code}, ${x.passed}/${x.rules} rules pass, ${x.used} requests of ${x.budget} (${x.counted} counted)`),
    `   time: ${withSpread(r.rounds.map((x) => x.seconds), 1, ' s')} (median, min–max); goal <= ${CONFORMANCE_SECONDS_TARGET} s with every rule passing: ${verdict(r.pass)}`,
  ]
}
