/**
 * Section `cli-start`: the CPU of the CLI's short runs, the ones scripts and test suites start by the
 * hundred: a one-page export to CSV and to SQLite, `serve` until its "listening on" line, and
 * `conformance --help`. Each is set beside what Node itself costs for the same job, measured in the
 * same round, so the ratios hold on a faster or busier machine: a script that makes the export's two
 * requests with fetch and writes the answer (Node's start, undici's load, the requests), a bare
 * node:http server until it listens, and `node -e 0`. A probe loaded before each child (`--import`)
 * reports its CPU (every thread, process.cpuUsage): at exit, or for a server when it first writes
 * "listening on". The verdict is the median ratio.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockServer } from '../../mocks/server/index.js'
import { CLI } from '../support/build-cli.js'
import { fmt, median, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

const WARMUP_ROUNDS = 1
const ROUNDS = 9
const NOW = '2026-01-03T00:00:00Z'
const KEY = 'demo-enterprise-key'
/** The one page: 25 hourly candles. */
const RANGE = ['--exchange', 'bitstamp', '--pair', 'BTC/USD', '--interval', '1h', '--start', '2026-01-01', '--end', '2026-01-02']

/**
 * Ratio goals, at most. A short export: the CLI's own share no larger than what Node needs to fetch
 * the same answers (most of that is undici's load). serve: under 3× a bare server; an ES import of
 * node:http, which loads undici, made it 3.4× (2026-11-29).
 */
export const CLI_START_GOALS = { exportCsv: 2, exportSqlite: 2, serve: 3 }

// Prints `cpu-ms N` at the first "listening on" written to stdout, or at exit.
const PROBE = `data:text/javascript,${encodeURIComponent(`
let told = false
const tell = () => { if (told) return; told = true; const u = process.cpuUsage(); process.stderr.write('\\ncpu-ms ' + (u.user + u.system) / 1000 + '\\n') }
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => { if (String(chunk).includes('listening on')) tell(); return write(chunk, ...rest) }
process.on('exit', tell)
`)}`

/** What Node alone costs for the export's job: the catalog and the page with fetch, the page written to a file. */
const fetchFloor = (base: string, out: string) => `
const headers = { 'x-api-key': '${KEY}' }
await (await fetch('${base}/v1/exchange_pairs?exchange=bitstamp&interval=1h', { headers })).json()
const page = await (await fetch('${base}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z&limit=1000', { headers })).json()
if (page.length !== 25) throw new Error('expected 25 candles, got ' + page.length)
process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(page))
`
const HTTP_FLOOR = "process.getBuiltinModule('node:http').createServer().listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })"

/** CPU ms of one child run, from the probe; a server is stopped (SIGTERM) once it listens. */
function cpuOfRun(args: string[], env: Record<string, string>, server = false): Promise<number> {
  const child = spawn(process.execPath, ['--import', PROBE, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s
    if (server && out.includes('listening on') && !child.killed) child.kill('SIGTERM')
  })
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      const cpu = /cpu-ms ([\d.]+)/.exec(err)
      if (!cpu || (!server && code !== 0)) return reject(new Error(`${args.slice(0, 3).join(' ')} exited (${signal ?? code}) without its figure:\n${err.slice(-2000)}`))
      resolve(Number(cpu[1]))
    })
  })
}

export interface CliStart {
  load: number
  /** CPU ms per round of each run. */
  cpu: Record<'nodeStart' | 'fetchFloor' | 'httpFloor' | 'exportCsv' | 'exportSqlite' | 'serve' | 'conformanceHelp', number[]>
  rows: BenchRow[]
  pass: boolean
}

export async function measureCliStart(): Promise<CliStart> {
  const load = loadavg()[0]!
  const server = await startMockServer({ port: 0, now: NOW })
  const dir = mkdtempSync(join(tmpdir(), 'bench-cli-start-'))
  const env = { MARKET_CANDLES_API_KEY: KEY, MARKET_CANDLES_BASE_URL: server.url }
  const cpu: CliStart['cpu'] = { nodeStart: [], fetchFloor: [], httpFloor: [], exportCsv: [], exportSqlite: [], serve: [], conformanceHelp: [] }
  try {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const out = join(dir, `r${round}`)
      // One of each per round, one after another: the ratios compare runs of the same moment.
      const runs: Array<[keyof CliStart['cpu'], () => Promise<number>]> = [
        ['nodeStart', () => cpuOfRun(['-e', '0'], {})],
        ['fetchFloor', () => cpuOfRun(['--input-type=module', '-e', fetchFloor(server.url, `${out}.json`)], {})],
        ['exportCsv', () => cpuOfRun([CLI, 'export', ...RANGE, '--out', `${out}.csv`, '--quiet'], env)],
        ['exportSqlite', () => cpuOfRun([CLI, 'export', ...RANGE, '--out', `${out}.sqlite`, '--quiet'], env)],
        ['httpFloor', () => cpuOfRun(['-e', HTTP_FLOOR], {}, true)],
        ['serve', () => cpuOfRun([CLI, 'serve', '--port', '0'], {}, true)],
        ['conformanceHelp', () => cpuOfRun([CLI, 'conformance', '--help'], {})],
      ]
      for (const [name, run] of runs) {
        const ms = await run()
        if (round >= WARMUP_ROUNDS) cpu[name].push(ms)
      }
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const ratio = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!)
  const csv = ratio(cpu.exportCsv, cpu.fetchFloor)
  const sqlite = ratio(cpu.exportSqlite, cpu.fetchFloor)
  const serve = ratio(cpu.serve, cpu.httpFloor)
  const ms = (xs: number[]) => withSpread(xs, 0, ' ms')
  const rows: BenchRow[] = [
    { figure: `one-page export to CSV (25 candles) ÷ Node fetching the same two answers and writing them: ${withSpread(csv, 2)}× (CPU ${ms(cpu.exportCsv)} ÷ ${ms(cpu.fetchFloor)})`, goal: `<= ${CLI_START_GOALS.exportCsv}×`, verdict: verdictOfRuns(csv, CLI_START_GOALS.exportCsv, true) },
    { figure: `the same to SQLite ÷ the same: ${withSpread(sqlite, 2)}× (CPU ${ms(cpu.exportSqlite)})`, goal: `<= ${CLI_START_GOALS.exportSqlite}×`, verdict: verdictOfRuns(sqlite, CLI_START_GOALS.exportSqlite, true) },
    { figure: `serve until "listening on" ÷ a bare node:http server until it listens: ${withSpread(serve, 2)}× (CPU ${ms(cpu.serve)} ÷ ${ms(cpu.httpFloor)})`, goal: `<= ${CLI_START_GOALS.serve}×`, verdict: verdictOfRuns(serve, CLI_START_GOALS.serve, true) },
    { figure: `conformance --help: CPU ${ms(cpu.conformanceHelp)}; Node's own start (node -e 0) ${ms(cpu.nodeStart)} (load average ${fmt(load, 1)} at the start)`, goal: '', verdict: 'info' },
  ]
  return { load, cpu, rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

export function reportCliStart(r: CliStart): string[] {
  const ms = (xs: number[]) => withSpread(xs, 0, ' ms')
  const beyond = (xs: number[], floor: number[]) => fmt(median(xs.map((x, i) => x - floor[i]!)), 0)
  return [
    `cli-start. CPU of the CLI's short runs (user + system, every thread), ${ROUNDS} rounds after ${WARMUP_ROUNDS} of warm-up, each run beside Node's own cost of the same job (load average ${fmt(r.load, 1)} at the start):`,
    `  node -e 0: ${ms(r.cpu.nodeStart)}; Node fetching the export's two answers and writing them: ${ms(r.cpu.fetchFloor)}; a bare node:http server until it listens: ${ms(r.cpu.httpFloor)}`,
    `  export one page to CSV: ${ms(r.cpu.exportCsv)} (${beyond(r.cpu.exportCsv, r.cpu.fetchFloor)} ms beyond Node's fetch); to SQLite: ${ms(r.cpu.exportSqlite)} (${beyond(r.cpu.exportSqlite, r.cpu.fetchFloor)} ms beyond)`,
    `  serve until "listening on": ${ms(r.cpu.serve)} (${beyond(r.cpu.serve, r.cpu.httpFloor)} ms beyond a bare server); conformance --help: ${ms(r.cpu.conformanceHelp)} (${beyond(r.cpu.conformanceHelp, r.cpu.nodeStart)} ms beyond node -e 0)`,
  ]
}
