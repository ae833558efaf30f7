/*
 * One run of bench 3d's setting, traced: N clients of one account, each with its own RateLimiter,
 * walk 240 pages in all against `market-candles serve --latency 100 --variant
 * rate-limit-headers=H`, and every change of the limiters' shares and every non-200 answer is
 * printed with its time. What the simulation (bench/rate-limit/rate-limit-sim.ts) cannot show: how real
 * clients start (their first answers come back in a different order each run), and how the
 * account ends up shared.
 *
 *   npx tsx bench/rate-limit/limiter-trace.ts [CLIENTS=4] [all|retry-after|none=retry-after]
 *
 * ALL=1 also prints every request as it leaves and every answer (the walk's pacing, request by request).
 *
 * Each line: seconds since the start, the client and what happened, then every limiter's share.
 * The last line says where in the trial turns (multiples of 8 s of the wall clock) the run began.
 */
import { createClient, RateLimiter } from '../../src/index.js'
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { MINUTE, NOW, PAGE_LIMIT } from '../support/fixtures.js'
import { fullPageRange, walkParams } from '../support/walk-range.js'

const clients = Number(process.argv[2] ?? 4)
const headers = process.argv[3] ?? 'retry-after'
const bad = !Number.isInteger(clients) || clients < 1 || clients > 16 ? `CLIENTS must be 1 to 16, got ${process.argv[2]}` : !['all', 'retry-after', 'none'].includes(headers) ? `the headers must be all, retry-after or none, got ${headers}` : undefined
if (bad !== undefined) {
  console.error(`limiter-trace: ${bad}\nUsage: npx tsx bench/rate-limit/limiter-trace.ts [CLIENTS=4] [all|retry-after|none=retry-after]`)
  process.exit(2)
}

const server = await startChildServer('ref', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', '100', '--now', NOW, '--variant', `rate-limit-headers=${headers}`])
const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2']
const startedAt = Date.now()
const t0 = performance.now()
const lines: string[] = []
const limiters = Array.from({ length: clients }, () => new RateLimiter())
const shares = () => limiters.map((l) => l.share).join(',')
const log = (what: string) => lines.push(`${((performance.now() - t0) / 1000).toFixed(2)} ${what}  shares ${shares()}`)
const pages = Math.floor(240 / clients)
try {
  await Promise.all(
    limiters.map(async (limiter, i) => {
      const client = createClient({
        apiKey: KEYS[i % 2],
        baseUrl: server.url,
        rateLimit: limiter,
        hooks: {
          onRequest: (e) => (process.env.ALL ? log(`c${i} -> ${e.endpoint}`) : undefined),
          onResponse: (e) => (e.endpoint !== 'exchange_ohlcv' || e.status !== 200 || process.env.ALL ? log(`c${i} ${e.status} ${e.endpoint}`) : undefined),
        },
      })
      const range = fullPageRange(Date.UTC(2020, 0, 1) + i * pages * PAGE_LIMIT * MINUTE, pages)
      let last = ''
      for await (const _page of client.exchangeOhlcvPages(walkParams(range))) {
        if (shares() !== last) {
          last = shares()
          log(`c${i} page`)
        }
      }
      log(`c${i} done`)
    }),
  )
} finally {
  await server.stop()
}
console.log(lines.join('\n'))
console.log(`began ${startedAt % 8000} ms into a turn of 8 s`)
