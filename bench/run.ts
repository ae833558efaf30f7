/**
 * `npm run bench`: every measurement in one run, then one table (section, figure, goal, verdict);
 * exit code 1 when a goal is not met. `npm run bench -- 2 3a` runs only those sections; `--docs`
 * also writes the table into docs/paging.md and docs/reference-service.md (bench/support/docs-table.ts).
 *
 * A section is a `measureX()` returning `{ pass }`, a `reportX(result)` returning its detailed lines
 * and, optionally, its lines of the final table (`BenchRow[]`: figure, goal, verdict), registered
 * with one `define(id, measureX, reportX, (r) => rows)` line below.
 */
import { loadavg } from 'node:os'
import { buildCli } from './support/build-cli.js'
import { writeDocsTables } from './support/docs-table.js'
import { measureExport, reportExport } from './export/export.js'
import { measureAnalyse, reportAnalyse } from './analyse/analyse.js'
import { measureJournalCost, reportJournalCost } from './server/journal-cost.js'
import { measureCorePageCost, reportCorePageCost } from './server/core-page-cost.js'
import { measureMemoryWalks, reportMemoryWalks } from './walks/memory-walk.js'
import { measureMswVsServer, reportMswVsServer } from './server/msw-vs-server.js'
import { measureValidationCost, reportValidationCost } from './walks/validation-cost.js'
import { measureRateLimitedWalks, reportRateLimitedWalks } from './rate-limit/rate-limited-walk.js'
import { measureSdkCpuCost, reportSdkCpuCost } from './walks/sdk-cpu-cost.js'
import { measureServerThroughput, reportServerThroughput } from './server/server-throughput.js'
import { formatTable, markdownTable, type BenchRow, type TableRow } from './support/table.js'
import { measureUncoordinatedClients, reportUncoordinatedClients, tableUncoordinatedClients } from './rate-limit/uncoordinated-clients.js'
import { measureCandleWalkCpu, reportCandleWalkCpu, tableCandleWalkCpu } from './walks/candle-walk-cpu.js'
import { measureFollow, reportFollow } from './follow/follow.js'
import { measureFollowLearnedDelay, reportFollowLearnedDelay } from './follow/follow-learned-delay.js'
import { measureConformance, reportConformance } from './cli/conformance.js'
import { measureRedisWorkers, reportRedisWorkers, tableRedisWorkers } from './rate-limit/redis-workers.js'
import { measureRedisHandover, reportRedisHandover, tableRedisHandover } from './rate-limit/redis-handover.js'
import { measureWalkCpu, reportWalkCpu, tableWalkCpu } from './walks/walk-cpu.js'
import { measureLoadExport, reportLoadExport } from './service-data/load-export.js'
import { measureArrangedData, reportArrangedData } from './service-data/arranged-data.js'
import { measureChaosFollow, reportChaosFollow } from './follow/chaos-follow.js'
import { measureArrangedHttp, reportArrangedHttp } from './service-data/arranged-http.js'
import { measureCliStart, reportCliStart } from './cli/cli-start.js'

interface Section {
  id: string
  run(): Promise<{ pass: boolean; rows: BenchRow[] | undefined; lines: string[] }>
}
const define = <R extends { pass: boolean }>(id: string, measure: () => Promise<R>, report: (result: R) => string[], table?: (result: R) => BenchRow[]): Section => ({
  id,
  run: async () => {
    const result = await measure()
    return { pass: result.pass, rows: table?.(result), lines: report(result) }
  },
})

const SECTIONS = [
  define('1', measureCorePageCost, reportCorePageCost, (r) => r.rows),
  define('2', measureServerThroughput, reportServerThroughput, (r) => r.rows),
  define('3a', measureSdkCpuCost, reportSdkCpuCost, (r) => r.rows),
  define('3b', measureRateLimitedWalks, reportRateLimitedWalks, (r) => r.rows),
  define('3c', measureMemoryWalks, reportMemoryWalks, (r) => r.rows),
  define('3d', measureUncoordinatedClients, reportUncoordinatedClients, tableUncoordinatedClients),
  define('3e', measureCandleWalkCpu, reportCandleWalkCpu, tableCandleWalkCpu),
  define('4', measureValidationCost, reportValidationCost, (r) => r.rows),
  define('5', measureMswVsServer, reportMswVsServer, (r) => r.rows),
  define('6', measureExport, reportExport, (r) => r.rows),
  define('follow', measureFollow, reportFollow, (r) => r.rows),
  define('follow-learned-delay', measureFollowLearnedDelay, reportFollowLearnedDelay, (r) => r.rows),
  define('analyse', measureAnalyse, reportAnalyse, (r) => r.rows),
  define('journal', measureJournalCost, reportJournalCost, (r) => r.rows),
  define('7', measureConformance, reportConformance, (r) => r.rows),
  define('3f', measureRedisWorkers, reportRedisWorkers, tableRedisWorkers),
  define('3g', measureRedisHandover, reportRedisHandover, tableRedisHandover),
  define('walk-cpu', measureWalkCpu, reportWalkCpu, tableWalkCpu),
  define('load-export', measureLoadExport, reportLoadExport, (r) => r.rows),
  define('arranged', measureArrangedData, reportArrangedData, (r) => r.rows),
  define('chaos-follow', measureChaosFollow, reportChaosFollow, (r) => r.rows),
  define('arranged-http', measureArrangedHttp, reportArrangedHttp, (r) => r.rows),
  define('cli-start', measureCliStart, reportCliStart, (r) => r.rows),
]

const args = process.argv.slice(2)
const writeDocs = args.includes('--docs')
// `--no-build`: skip building dist/ (sections that start the CLI then run whatever dist/ holds).
const build = !args.includes('--no-build')
const wanted = args.filter((a) => a !== '--docs' && a !== '--no-build')
const unknown = wanted.filter((id) => !SECTIONS.some((s) => s.id === id))
if (unknown.length > 0) {
  console.error(`bench: no section ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.id).join(', ')}`)
  process.exit(2)
}
const selected = wanted.length > 0 ? SECTIONS.filter((s) => wanted.includes(s.id)) : SECTIONS

const benchStarted = performance.now()
// The machine's load before the bench starts: figures from a busy machine are noisier (and say so).
const loadAtStart = loadavg()[0]!
const date = new Date().toISOString().slice(0, 10)
console.log(`market-candles bench, ${date} (node ${process.version}, ${process.platform}/${process.arch}; load average ${loadAtStart.toFixed(1)})`)
console.log(build ? buildCli() : 'dist/ not rebuilt (--no-build)')
console.log('')

// Every loop is bounded; this only catches a hang (e.g. a request that never completes), section by
// section: the longest, 3d, takes about 17 minutes (bench/README.md gives each one's time).
// Exiting kills the server children too.
const WATCHDOG_S = 1500
let watchdog: ReturnType<typeof setTimeout> | undefined
const watch = (id: string) => {
  clearTimeout(watchdog)
  watchdog = setTimeout(() => {
    console.error(`bench: section ${id} still running after ${WATCHDOG_S} s, giving up`)
    process.exit(2)
  }, WATCHDOG_S * 1000)
  watchdog.unref()
}
const started = performance.now()
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)

const table: TableRow[] = []
let ok = true
for (const section of selected) {
  watch(section.id)
  const t0 = performance.now()
  // A section that throws is reported and the others still run: the table says what failed.
  const result = await section.run().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    return { pass: false, rows: [{ figure: `failed: ${message.split('\n')[0]}`, goal: '', verdict: 'not measured' as const }], lines: [`${section.id}. FAILED: ${message}`] }
  })
  for (const line of result.lines) console.log(line)
  console.log(`  (${seconds(t0)} s)`)
  console.log('')
  // A section without rows of its own gets one from its verdict and its report's last line.
  const rows: BenchRow[] = result.rows ?? [{ figure: result.lines.at(-1)!.trim(), goal: '', verdict: result.pass ? 'met' : 'not met' }]
  table.push(...rows.map((row) => ({ section: section.id, ...row })))
  ok &&= result.pass && rows.every((row) => row.verdict !== 'not met')
}
clearTimeout(watchdog)

console.log(`Summary (${date}; measurements ${seconds(started)} s, with the build ${seconds(benchStarted)} s):`)
for (const line of formatTable(table)) console.log(line)
console.log('')
console.log('The same, as Markdown:')
for (const line of markdownTable(table)) console.log(line)
console.log('')
if (writeDocs) console.log(`Table written into ${writeDocsTables(table, selected.map((s) => s.id), date, SECTIONS.map((s) => s.id), `, load average ${loadAtStart.toFixed(1)} at the start`).join(' and ')}`)
console.log(`Overall: ${ok ? 'every goal met or inside the spread' : 'a goal is not met'}`)
process.exitCode = ok ? 0 : 1
