/** `npm run bench`: both measurements in one run; exit code 1 when a target fails. */
import { buildCli } from './build-cli.js'
import { measureCorePageCost, reportCorePageCost } from './core-page-cost.js'
import { measureServerThroughput, reportServerThroughput } from './server-throughput.js'
import { verdict } from './stats.js'

const benchStarted = performance.now()
console.log(`market-candles bench (node ${process.version}, ${process.platform}/${process.arch})`)
console.log(buildCli())
console.log('')

// Every loop is bounded; this only catches a hang (e.g. a request that never completes).
// Exiting kills the server children too (child-server.ts).
const watchdog = setTimeout(() => {
  console.error('bench: still running after 120 s, giving up')
  process.exit(2)
}, 120_000)
watchdog.unref()
const started = performance.now()

const core = await measureCorePageCost()
for (const line of reportCorePageCost(core)) console.log(line)
console.log('')

const server = await measureServerThroughput()
for (const line of reportServerThroughput(server)) console.log(line)
console.log('')

const ok = core.pass && server.pass
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)
console.log(`Overall: ${verdict(ok)} (measurements ${seconds(started)} s, with the build ${seconds(benchStarted)} s)`)
process.exitCode = ok ? 0 : 1
