/** `npm run bench`: both measurements in one run; exit code 1 when a target fails. */
import { measureCorePageCost, reportCorePageCost } from './core-page-cost.js'
import { measureServerThroughput, reportServerThroughput } from './server-throughput.js'
import { verdict } from './stats.js'

// Every loop is bounded; this only catches a hang (e.g. a request that never completes).
const watchdog = setTimeout(() => {
  console.error('bench: still running after 120 s, giving up')
  process.exit(2)
}, 120_000)
watchdog.unref()

const started = performance.now()
console.log(`market-candles bench (node ${process.version}, ${process.platform}/${process.arch})`)
console.log('')

const core = await measureCorePageCost()
for (const line of reportCorePageCost(core)) console.log(line)
console.log('')

const server = await measureServerThroughput()
for (const line of reportServerThroughput(server)) console.log(line)
console.log('')

const ok = core.pass && server.pass
console.log(`Overall: ${verdict(ok)} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
process.exitCode = ok ? 0 : 1
