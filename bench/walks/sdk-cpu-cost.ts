/**
 * Measurement 3a: the client CPU the SDK's forward iterator spends on a walk, against a raw loop of
 * `fetch` + `JSON.parse` that sends the same requests and touches every candle the same way. Both
 * talk to the standalone reference server (dist/cli.js, --no-rate-limit) in a child process; only
 * this process's CPU (process.cpuUsage, user + system) is compared, with the garbage each walk leaves
 * collected inside its own timing (support/cpu-time.ts): the SDK allocates more per candle than the raw loop
 * (an async iterator step per candle), and that GC is part of its cost.
 */
import { createClient, type MarketCandles } from '../../src/index.js'
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { timed } from '../support/cpu-time.js'
import { API_KEY, NOW } from '../support/fixtures.js'
import { rawWalk, type WalkTally } from './raw-walk.js'
import { sdkWalk } from './sdk-walk.js'
import { fmt, median, quantile } from '../support/stats.js'
import { verdictOf, type BenchRow, type Verdict } from '../support/table.js'
import { fullPageRange, type WalkRange } from '../support/walk-range.js'

export const CPU_TARGET_VALIDATED = 1.25
export const CPU_TARGET_UNVALIDATED = 1.1

const RANGE = fullPageRange(Date.UTC(2020, 0, 1), 100)
const DEFAULT_CONCURRENCY = 8
/** Rounds of (raw, SDK validated, SDK unvalidated), each round in another of the 6 orders. */
const ROUNDS = 18
const CONCURRENT_RUNS = 3

type Side = 'raw' | 'sdk' | 'sdkNoValidate'
const ORDERS: Side[][] = [
  ['raw', 'sdk', 'sdkNoValidate'],
  ['sdkNoValidate', 'sdk', 'raw'],
  ['sdk', 'raw', 'sdkNoValidate'],
  ['sdkNoValidate', 'raw', 'sdk'],
  ['sdk', 'sdkNoValidate', 'raw'],
  ['raw', 'sdkNoValidate', 'sdk'],
]

export interface Run {
  cpuMs: number
  wallMs: number
}

/** SDK/raw CPU, paired by round (each round runs every side back to back): median and spread. */
export interface PairedRatio {
  perRound: number[]
  median: number
  /** The middle 80 % of the per-round ratios (10th to 90th percentile): one odd round does not widen it. */
  low: number
  high: number
  verdict: Verdict
}

export interface SdkCpuCost {
  range: WalkRange
  runs: Record<Side, Run[]>
  concurrent: { sdk: Run[]; sdkNoValidate: Run[] }
  validated: PairedRatio
  unvalidated: PairedRatio
  rows: BenchRow[]
  pass: boolean
}

function paired(sdk: Run[], raw: Run[], goal: number): PairedRatio {
  const perRound = sdk.map((x, i) => x.cpuMs / raw[i]!.cpuMs)
  const low = quantile(perRound, 0.1)
  const high = quantile(perRound, 0.9)
  return { perRound, median: median(perRound), low, high, verdict: verdictOf(median(perRound), low, high, goal, true) }
}

function sameTally(name: string, got: WalkTally, want: WalkTally, range: WalkRange): void {
  if (got.candles !== range.candles || got.candles !== want.candles || got.closeSum !== want.closeSum) {
    throw new Error(`${name}: ${got.candles} candles (sum of close ${got.closeSum}), raw loop ${want.candles} (${want.closeSum}), expected ${range.candles}`)
  }
}

export async function measureSdkCpuCost(): Promise<SdkCpuCost> {
  const server = await startChildServer('reference server', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--no-rate-limit', '--now', NOW])
  try {
    // rateLimit: false on the client too: the server's limit is off, and a limiter would only add
    // waits (wall) and its own bookkeeping; the limiter's cost is not what 3a is about.
    const base = { apiKey: API_KEY, baseUrl: server.url, rateLimit: false } as const
    let recorder: string[] | undefined
    const checked = createClient({ ...base, hooks: { onRequest: (e) => e.endpoint === 'exchange_ohlcv' && recorder?.push(e.url) } })
    const clients: Record<'sdk' | 'sdkNoValidate', MarketCandles> = {
      sdk: createClient(base),
      sdkNoValidate: createClient({ ...base, validate: false }),
    }

    // Warm-up (JIT, keep-alive sockets) that also checks both sides send the same requests and see the same candles.
    const raw0 = await rawWalk(server.url, RANGE)
    if (raw0.pages !== RANGE.pages) throw new Error(`raw loop: ${raw0.pages} pages, expected ${RANGE.pages}`)
    recorder = []
    const sdk0 = await sdkWalk(checked, RANGE, 1, recorder)
    recorder = undefined
    sameTally('SDK (checked)', sdk0, raw0, RANGE)
    if (sdk0.urls.length !== raw0.urls.length || sdk0.urls.some((u, i) => u !== raw0.urls[i])) {
      const i = sdk0.urls.findIndex((u, i) => u !== raw0.urls[i])
      throw new Error(`SDK and raw loop differ at request ${i}: ${sdk0.urls[i]} vs ${raw0.urls[i]}`)
    }
    sameTally('SDK', await sdkWalk(clients.sdk, RANGE, 1), raw0, RANGE)
    sameTally('SDK validate:false', await sdkWalk(clients.sdkNoValidate, RANGE, 1), raw0, RANGE)

    const run = async (side: Side, concurrency = 1): Promise<Run> => {
      const { value, cpuMs, wallMs } = await timed(() => (side === 'raw' ? rawWalk(server.url, RANGE) : sdkWalk(clients[side], RANGE, concurrency)))
      sameTally(side, value, raw0, RANGE)
      return { cpuMs, wallMs }
    }
    const runs: Record<Side, Run[]> = { raw: [], sdk: [], sdkNoValidate: [] }
    for (let r = 0; r < ROUNDS; r++) for (const side of ORDERS[r % ORDERS.length]!) runs[side].push(await run(side))

    const concurrent = { sdk: [] as Run[], sdkNoValidate: [] as Run[] }
    await run('sdk', DEFAULT_CONCURRENCY) // warm-up of the concurrent path
    for (let r = 0; r < CONCURRENT_RUNS; r++) {
      for (const side of r % 2 === 0 ? (['sdk', 'sdkNoValidate'] as const) : (['sdkNoValidate', 'sdk'] as const)) {
        concurrent[side].push(await run(side, DEFAULT_CONCURRENCY))
      }
    }

    const validated = paired(runs.sdk, runs.raw, CPU_TARGET_VALIDATED)
    const unvalidated = paired(runs.sdkNoValidate, runs.raw, CPU_TARGET_UNVALIDATED)
    const rawCpu = median(runs.raw.map((x) => x.cpuMs))
    const perPage = (xs: Run[]) => fmt(median(xs.map((x) => x.cpuMs)) / RANGE.pages, 2)
    const row = (name: string, p: PairedRatio, goal: number): BenchRow => ({
      figure: `SDK / raw fetch + JSON.parse client CPU, ${name}, paired by round: ${fmt(p.median, 2)} (${fmt(p.low, 2)}–${fmt(p.high, 2)}), ${ROUNDS} rounds`,
      goal: `<= ${goal}`,
      verdict: p.verdict,
    })
    const rows: BenchRow[] = [
      row('concurrency 1, validation on', validated, CPU_TARGET_VALIDATED),
      row('concurrency 1, validate: false', unvalidated, CPU_TARGET_UNVALIDATED),
      {
        figure: `default iterator (concurrency ${DEFAULT_CONCURRENCY}) CPU per page: ${perPage(concurrent.sdk)} ms validated, ${perPage(concurrent.sdkNoValidate)} ms unvalidated, raw loop ${fmt(rawCpu / RANGE.pages, 2)} ms`,
        goal: '',
        verdict: 'info',
      },
    ]
    return { range: RANGE, runs, concurrent, validated, unvalidated, rows, pass: rows.every((r) => r.verdict !== 'not met') }
  } finally {
    await server.stop()
  }
}

export function reportSdkCpuCost(r: SdkCpuCost): string[] {
  const { pages } = r.range
  const list = (xs: Run[], key: keyof Run) => xs.map((x) => fmt(x[key], 0)).join(', ')
  const line = (name: string, xs: Run[]) => {
    const cpu = median(xs.map((x) => x.cpuMs))
    const wall = median(xs.map((x) => x.wallMs))
    return [
      `  ${name}: CPU ms per run [${list(xs, 'cpuMs')}]  wall ms [${list(xs, 'wallMs')}]`,
      `      median CPU ${fmt(cpu, 1)} ms (${fmt(cpu / pages, 3)} ms/page), median wall ${fmt(wall, 1)} ms (${fmt((pages * 1000) / wall, 1)} pages/s)`,
    ]
  }
  const pairedLine = (name: string, p: PairedRatio, goal: number) =>
    `  SDK/raw CPU per round, ${name}: [${p.perRound.map((x) => fmt(x, 2)).join(', ')}]; median ${fmt(p.median)}, ` +
    `10th-90th percentile ${fmt(p.low)}-${fmt(p.high)} (goal <= ${goal})  ${p.verdict}`
  return [
    `3a. SDK client CPU: forward walk of ${pages} full 1m pages (${r.range.candles} candles, ${r.range.start} .. ${r.range.end}),`,
    `    reference server (node ${CLI} serve --no-rate-limit) in a child process; client rateLimit: false, default retry/timeout;`,
    `    this process's CPU (process.cpuUsage user+system) per walk, a full GC before it and one inside it (each walk pays for its own garbage);`,
    `    ${r.runs.raw.length} rounds, each side once per round, order rotated`,
    ...line('raw fetch + JSON.parse, sequential    ', r.runs.raw),
    ...line('SDK concurrency 1, validate (default) ', r.runs.sdk),
    ...line('SDK concurrency 1, validate: false    ', r.runs.sdkNoValidate),
    `  (info) default concurrent iterator (concurrency ${DEFAULT_CONCURRENCY}, incl. its catalog call):`,
    ...line('SDK concurrency 8, validate (default) ', r.concurrent.sdk),
    ...line('SDK concurrency 8, validate: false    ', r.concurrent.sdkNoValidate),
    pairedLine('validated  ', r.validated, CPU_TARGET_VALIDATED),
    pairedLine('unvalidated', r.unvalidated, CPU_TARGET_UNVALIDATED),
    `  (a verdict only when the whole 10th-90th percentile spread lies on one side of the goal)`,
  ]
}
