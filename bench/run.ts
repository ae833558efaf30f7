/** `npm run bench`: every measurement in one run; exit code 1 when a target fails. */
import { buildCli } from './build-cli.js'
import { measureExport, reportExport } from './export.js'
import { measureCorePageCost, reportCorePageCost } from './core-page-cost.js'
import { measureMemoryWalks, reportMemoryWalks } from './memory-walk.js'
import { measureRateLimitedWalks, reportRateLimitedWalks } from './rate-limited-walk.js'
import { measureSdkCpuCost, reportSdkCpuCost } from './sdk-cpu-cost.js'
import { measureServerThroughput, reportServerThroughput } from './server-throughput.js'
import { verdict } from './stats.js'

const benchStarted = performance.now()
console.log(`market-candles bench (node ${process.version}, ${process.platform}/${process.arch})`)
console.log(buildCli())
console.log('')

// Every loop is bounded; this only catches a hang (e.g. a request that never completes).
// Exiting kills the server children too (child-server.ts, memory-walk.ts). The whole run takes
// about 5 minutes, most of it in 3b (paced by the rate limit) and 3c (two walks of 10 M candles).
const WATCHDOG_S = 600
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_S} s, giving up`)
  process.exit(2)
}, WATCHDOG_S * 1000)
watchdog.unref()
const started = performance.now()
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)

/** Runs one measurement, prints its report and how long it took; returns whether it passed. */
async function section<R extends { pass: boolean }>(measure: () => Promise<R>, report: (r: R) => string[]): Promise<boolean> {
  const t0 = performance.now()
  const result = await measure()
  for (const line of report(result)) console.log(line)
  console.log(`  (${seconds(t0)} s)`)
  console.log('')
  return result.pass
}

const passed = [
  await section(measureCorePageCost, reportCorePageCost),
  await section(measureServerThroughput, reportServerThroughput),
  await section(measureSdkCpuCost, reportSdkCpuCost),
  await section(measureRateLimitedWalks, reportRateLimitedWalks),
  await section(measureMemoryWalks, reportMemoryWalks),
  await section(measureExport, reportExport),
]
const ok = passed.every(Boolean)
console.log(`Overall: ${verdict(ok)} (${passed.map(verdict).join(', ')}; measurements ${seconds(started)} s, with the build ${seconds(benchStarted)} s)`)
process.exitCode = ok ? 0 : 1
