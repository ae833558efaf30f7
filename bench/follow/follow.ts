/**
 * Section "follow": following the newest candles against `market-candles serve` with a running clock.
 *
 * a. Steady state, one series at a time: 3 `1m` series followed on a server whose clock runs 2x
 *    (a minute every 30 s: a stall of the loaded machine counts only twice in the lag), beside the same series polled naively every 5 s (service time), and
 *    beside the same follow on a server with `--publish-delay 1500` (under the 2 s settle delay).
 *    Requests per series per interval, and the lag from a candle's close to its delivery (service time).
 * b. 500 `1m` series through one `followMany` on a server whose clock runs at wall speed, shifted
 *    from the machine's (the follow learns it from the Date header): every candle's lag, and 429s.
 * c. Memory: RSS of a process following 20 series after a full GC at 1,000 and at 10,000 polls
 *    (bench/follow/follow-memory-child.ts, a process of its own), against a server at 300x in another
 *    process, then a process making the same requests as plain page calls at the same pace: what
 *    HTTP and V8 cost without the follow. They run one after the other, after a. and b. have ended,
 *    so no other figure shares the CPU with them; each sample also gives V8's young generation. Last,
 *    the same follow in a node whose young generation is capped (`--max-semi-space-size`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient, type ExchangeCandle, type FollowSeries } from '../../src/index.js'
import { CLI } from '../support/build-cli.js'
import { runChildForResult } from '../support/child-result.js'
import { startChildServer, type ChildServer } from '../support/child-server.js'
import { serviceClockOf } from './service-clock-model.js'
import { fmt, median, quantile, spread } from '../support/stats.js'
import { verdictOf, verdictOfRuns, type BenchRow } from '../support/table.js'

const MIN = 60_000
const SETTLE_MS = 2_000
const FAST_RATE = 2
const INTERVALS = 7
const NAIVE_EVERY_MS = 5_000
const PUBLISH_DELAY_MS = 1_500
const MANY = 500
const MANY_INTERVALS = 2
/** The memory run's clock: 20 series at 300x are 100 polls a second, 10,000 in under 2 minutes. */
const MEMORY_RATE = 300
const MEMORY_CHILD = fileURLToPath(new URL('./follow-memory-child.ts', import.meta.url))
/** The young generation's cap of the third memory run (MB per semi-space; V8's own maximum here is 64). */
const CAPPED_SEMI_SPACE_MB = 8
const PAIRS = ['BTC/USD', 'ETH/USD', 'XRP/USD']

interface SeriesRun {
  requests: number
  candles: number
  lagsMs: number[]
}

const pairParams = (pair: string) => {
  const [base, quote] = pair.split('/') as [string, string]
  return { exchange: 'bitstamp', interval: '1m', base, quote }
}

/** Follows one series from the latest candle up to `end`; counts its candle requests after the first. */
async function followOne(url: string, pair: string, key: string, now: () => number, end: number): Promise<SeriesRun> {
  let requests = 0
  const client = createClient({ apiKey: key, baseUrl: url, hooks: { onRequest: (e) => void (e.endpoint.endsWith('ohlcv') && requests++) } })
  const run: SeriesRun = { requests: 0, candles: 0, lagsMs: [] }
  let first = true
  for await (const candle of client.exchangeOhlcvFollow({ ...pairParams(pair), end }, { now, settleMs: SETTLE_MS })) {
    if (first) {
      first = false
      requests = 0 // the latest candle at the start: not part of the steady state
      continue
    }
    run.lagsMs.push(now() - Date.parse(candle.close_ts))
    run.candles++
  }
  run.requests = requests
  return run
}

/** The same series polled every few seconds of service time, as a hand-written loop would. */
async function pollNaively(url: string, pair: string, key: string, now: () => number, end: number): Promise<SeriesRun> {
  const client = createClient({ apiKey: key, baseUrl: url })
  const run: SeriesRun = { requests: 0, candles: 0, lagsMs: [] }
  let newest = ''
  const { base, quote, exchange, interval } = pairParams(pair)
  for (;;) {
    const page: ExchangeCandle[] = await client.exchangeOhlcv({ exchange, interval, base, quote, limit: 5 })
    const fresh = page.filter((c) => c.close_ts > newest)
    if (newest !== '') {
      run.requests++
      for (const c of fresh) {
        run.lagsMs.push(now() - Date.parse(c.close_ts))
        run.candles++
      }
    }
    if (fresh.length > 0) newest = fresh.at(-1)!.close_ts
    if (Date.parse(newest) >= end) return run
    await new Promise((r) => setTimeout(r, NAIVE_EVERY_MS / FAST_RATE))
  }
}

const perInterval = (r: SeriesRun) => r.requests / r.candles

/** A reference server with 500 listings, its clock shifted from the machine's by months (at wall speed, one second after a minute's close). */
export function startManyServer(): Promise<ChildServer> {
  const shifted = new Date(Math.floor(Date.now() / MIN) * MIN - 200 * 86_400_000 + 1_000).toISOString()
  return startChildServer('reference server (500 listings, shifted clock)', [CLI, 'serve', '--port', '0', '--data', manyListingsFile(), '--now', shifted, '--clock-rate', '1'])
}

/** 500 listings on one exchange, for `serve --data`. */
export function manyListingsFile(): string {
  const assets = [{ name: 'US Dollar', asset_type: 'FIAT', ticker: 'USD' }, ...Array.from({ length: MANY }, (_, i) => ({ name: `Coin ${i}`, asset_type: 'CRYPTO', ticker: `C${String(i).padStart(3, '0')}` }))]
  const listings = assets.slice(1).map((a, i) => ({ exchange: 'bench', base: a.ticker, quote: 'USD', listed: '2025-01-01T00:00:00Z', price: 10 + i, volatility: 1, volumePerMinute: 100 }))
  const file = join(mkdtempSync(join(tmpdir(), 'market-candles-follow-')), 'many.json')
  writeFileSync(file, JSON.stringify({ data: { exchanges: [{ name: 'bench', creation_date: '2024-12-01', closing_date: null }], assets, listings } }))
  return file
}

export interface ManyRun {
  series: number
  candles: number
  lagsMs: number[]
  rateLimited: number
  everySeriesComplete: boolean
  wallMs: number
}

/** 500 `1m` series in one followMany for two intervals: with the given settle delay, or learning it (undefined). */
export async function followMany(server: ChildServer, settleMs: number | undefined = SETTLE_MS): Promise<ManyRun> {
  const truth = await serviceClockOf(server.url, 1)
  // Started just after a boundary: the first minute catches every series up to its latest candle.
  const firstBoundary = Math.ceil(truth() / MIN) * MIN
  const end = firstBoundary + MANY_INTERVALS * MIN
  let rateLimited = 0
  const client = createClient({ apiKey: 'demo-enterprise-key', baseUrl: server.url, hooks: { onResponse: (e) => void (e.status === 429 && rateLimited++) } })
  const series: FollowSeries[] = Array.from({ length: MANY }, (_, i) => ({ endpoint: 'exchange_ohlcv', exchange: 'bench', interval: '1m', base: `C${String(i).padStart(3, '0')}`, quote: 'USD', end }))
  const started = performance.now()
  const lagsMs: number[] = []
  const perSeries = new Map<object, number>()
  const live = client.followMany(series, settleMs === undefined ? {} : { settleMs })
  for await (const { series: s, candle } of live) {
    const t = Date.parse(candle.close_ts)
    perSeries.set(s, (perSeries.get(s) ?? 0) + 1)
    if (t >= firstBoundary) lagsMs.push(truth() - t)
  }
  return {
    series: perSeries.size,
    candles: lagsMs.length,
    lagsMs,
    rateLimited,
    everySeriesComplete: live.ended.length === MANY && lagsMs.length >= MANY * MANY_INTERVALS,
    wallMs: performance.now() - started,
  }
}

interface MemoryRun {
  samples: { polls: number; rssMb: number; heapMb: number; heapTotalMb: number; externalMb: number; arrayBuffersMb: number; newSpaceMb: number }[]
  candles: number
  ordered: boolean
  wallMs: number
}

export interface FollowBench {
  follow: SeriesRun[]
  delayed: SeriesRun[]
  naive: SeriesRun[]
  many: ManyRun
  memory: MemoryRun
  /** The same number of plain page requests at the same pace, without a follow. */
  plainMemory: MemoryRun
  /** The same follow in a node started with `--max-semi-space-size`: RSS without the young generation's growth. */
  cappedMemory: MemoryRun
  rows: BenchRow[]
  pass: boolean
}

export async function measureFollow(): Promise<FollowBench> {
  const NOW = '2026-06-01T00:00:01Z'
  const fast = await startChildServer('reference server (clock 2x)', [CLI, 'serve', '--port', '0', '--now', NOW, '--clock-rate', String(FAST_RATE)])
  const delayedServer = await startChildServer('reference server (clock 2x, publish delay)', [CLI, 'serve', '--port', '0', '--now', NOW, '--clock-rate', String(FAST_RATE), '--publish-delay', String(PUBLISH_DELAY_MS)])
  const manyServer = await startManyServer()
  try {
    const fastNow = await serviceClockOf(fast.url, FAST_RATE)
    const delayedNow = await serviceClockOf(delayedServer.url, FAST_RATE)
    const endOf = (now: () => number) => Math.ceil(now() / MIN) * MIN + INTERVALS * MIN
    const [follow, delayed, naive, many] = await Promise.all([
      Promise.all(PAIRS.map((p) => followOne(fast.url, p, 'demo-pro-key', fastNow, endOf(fastNow)))),
      Promise.all(PAIRS.map((p) => followOne(delayedServer.url, p, 'demo-pro-key', delayedNow, endOf(delayedNow)))),
      Promise.all(PAIRS.map((p) => pollNaively(fast.url, p, 'demo-enterprise-key', fastNow, endOf(fastNow)))),
      followMany(manyServer),
    ])
    await Promise.all([fast.stop(), delayedServer.stop(), manyServer.stop()])
    const { memory, plainMemory, cappedMemory } = await measureMemory(NOW)
    return { follow, delayed, naive, many, memory, plainMemory, cappedMemory, ...tableOf(follow, delayed, naive, many, memory, plainMemory, cappedMemory) }
  } finally {
    await Promise.all([fast.stop(), delayedServer.stop(), manyServer.stop()])
  }
}

/**
 * The memory figure, after the others: the follower in a process of its own, the reference service
 * in another, then the plain page calls the same way. Nothing else of the section runs meanwhile.
 */
async function measureMemory(now: string): Promise<{ memory: MemoryRun; plainMemory: MemoryRun; cappedMemory: MemoryRun }> {
  const server = await startChildServer('reference server (clock 300x, no rate limit)', [CLI, 'serve', '--port', '0', '--now', now, '--clock-rate', String(MEMORY_RATE), '--no-rate-limit'])
  try {
    const memory = await runChildForResult<MemoryRun>(MEMORY_CHILD, [server.url, String(MEMORY_RATE), 'follow'], 300_000)
    const plainMemory = await runChildForResult<MemoryRun>(MEMORY_CHILD, [server.url, String(MEMORY_RATE), 'naive'], 400_000)
    const cappedMemory = await runChildForResult<MemoryRun>(MEMORY_CHILD, [server.url, String(MEMORY_RATE), 'follow'], 300_000, undefined, [`--max-semi-space-size=${CAPPED_SEMI_SPACE_MB}`])
    return { memory, plainMemory, cappedMemory }
  } finally {
    await server.stop()
  }
}

const seconds = (ms: number) => fmt(ms / 1000, 2)
/** The young generation's committed size at each checkpoint, e.g. `32 → 64 → 128 → 128 → 128 MB`. */
const youngText = (run: MemoryRun) => `${run.samples.map((s) => fmt(s.newSpaceMb, 0)).join(' → ')} MB`

function tableOf(follow: SeriesRun[], delayed: SeriesRun[], naive: SeriesRun[], many: ManyRun, memory: MemoryRun, plain: MemoryRun, capped: MemoryRun): { rows: BenchRow[]; pass: boolean } {
  const ratio = (runs: SeriesRun[]) => {
    const xs = runs.map(perInterval)
    const { low, high } = spread(xs)
    return { text: `${fmt(median(xs), 2)} (${fmt(low, 2)}–${fmt(high, 2)})`, median: median(xs), low, high }
  }
  const f = ratio(follow)
  const d = ratio(delayed)
  const n = ratio(naive)
  const lags = (runs: SeriesRun[], p: number) => runs.map((r) => quantile(r.lagsMs, p))
  const lagLimit = SETTLE_MS + 1_000
  const med = spread(lags(follow, 0.5))
  const p99 = spread(lags(follow, 0.99))
  const naiveMed = spread(lags(naive, 0.5))
  const manyMax = Math.max(...many.lagsMs)
  const [m1, m10] = [memory.samples[0]!, memory.samples.at(-1)!]
  const [p1, p10] = [plain.samples[0]!, plain.samples.at(-1)!]
  const [c1, c10] = [capped.samples[0]!, capped.samples.at(-1)!]
  const rows: BenchRow[] = [
    { figure: `requests per series per interval, following ${follow.length} 1m series (clock 2x), steady state: ${f.text}`, goal: '<= 1.00', verdict: verdictOf(f.median, f.low, f.high, 1, true) },
    { figure: `the same with --publish-delay ${PUBLISH_DELAY_MS} (under the ${SETTLE_MS} ms settle delay): ${d.text}`, goal: '<= 1.05', verdict: verdictOf(d.median, d.low, d.high, 1.05, true) },
    { figure: `a naive loop polling every ${NAIVE_EVERY_MS / 1000} s, side by side: ${n.text} requests per interval (${fmt(median(naive.map(perInterval)) / median(follow.map(perInterval)), 1)}x the follow), median lag ${seconds(median(lags(naive, 0.5)))} s (${seconds(naiveMed.low)}–${seconds(naiveMed.high)})`, goal: '', verdict: 'info' },
    { figure: `lag from close to delivery, one series (service time): median ${seconds(median(lags(follow, 0.5)))} s (${seconds(med.low)}–${seconds(med.high)}), p99 ${seconds(median(lags(follow, 0.99)))} s (${seconds(p99.low)}–${seconds(p99.high)})`, goal: `<= ${lagLimit / 1000} s`, verdict: verdictOfRuns(lags(follow, 0.99), lagLimit, true) },
    { figure: `${many.series} 1m series in one followMany (shifted service clock, learnt from Date), ${many.candles} candles: lag median ${seconds(median(many.lagsMs))} s, p99 ${seconds(quantile(many.lagsMs, 0.99))} s, max ${seconds(manyMax)} s; ${many.rateLimited} x 429`, goal: 'every candle <= 60 s, 0 x 429', verdict: many.everySeriesComplete && manyMax <= MIN && many.rateLimited === 0 ? 'met' : 'not met' },
    { figure: `RSS after a full GC while following 20 series, after 1,000 → 10,000 polls: ${fmt(m1.rssMb, 1)} → ${fmt(m10.rssMb, 1)} MB (live heap ${fmt(m1.heapMb, 1)} → ${fmt(m10.heapMb, 1)} MB)`, goal: '+<= 20 MB', verdict: memory.ordered && m10.rssMb - m1.rssMb <= 20 ? 'met' : 'not met' },
    { figure: `beside it, the same 10,000 requests as plain page calls at the same pace, no follow: RSS ${fmt(p1.rssMb, 1)} → ${fmt(p10.rssMb, 1)} MB (live heap ${fmt(p1.heapMb, 1)} → ${fmt(p10.heapMb, 1)} MB)`, goal: '', verdict: 'info' },
    { figure: `where RSS goes: V8's young generation (new space, committed) ${youngText(memory)} following, ${youngText(plain)} with plain calls; RSS less it ${fmt(m1.rssMb - m1.newSpaceMb, 1)} → ${fmt(m10.rssMb - m10.newSpaceMb, 1)} MB following (external ${fmt(m1.externalMb, 1)} → ${fmt(m10.externalMb, 1)} MB)`, goal: '', verdict: 'info' },
    { figure: `the same follow in node --max-semi-space-size=${CAPPED_SEMI_SPACE_MB} (young generation ${youngText(capped)}): RSS ${fmt(c1.rssMb, 1)} → ${fmt(c10.rssMb, 1)} MB (live heap ${fmt(c1.heapMb, 1)} → ${fmt(c10.heapMb, 1)} MB)`, goal: '+<= 20 MB', verdict: capped.ordered && c10.rssMb - c1.rssMb <= 20 ? 'met' : 'not met' },
  ]
  return { rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

export function reportFollow(r: FollowBench): string[] {
  const line = (name: string, runs: SeriesRun[]) =>
    `  ${name}: ${runs.map((x, i) => `${PAIRS[i]} ${x.requests} requests / ${x.candles} candles`).join('; ')}`
  return [
    `follow. Following the newest candles against serve with a running clock (settle ${SETTLE_MS} ms)`,
    line('follow, clock 2x', r.follow),
    line(`follow, publish delay ${PUBLISH_DELAY_MS} ms`, r.delayed),
    line(`naive loop every ${NAIVE_EVERY_MS / 1000} s`, r.naive),
    `  followMany: ${r.many.series} series, ${r.many.candles} candles after the first boundary in ${fmt(r.many.wallMs / 1000, 1)} s, ${r.many.rateLimited} x 429, every series complete: ${r.many.everySeriesComplete}`,
    `  plain page calls, memory after a full GC: ${r.plainMemory.samples.map((s) => `${s.polls}: RSS ${fmt(s.rssMb, 1)} MB (heap ${fmt(s.heapMb, 1)} of ${fmt(s.heapTotalMb, 1)}, new space ${fmt(s.newSpaceMb, 0)})`).join('; ')}`,
    `  the same, node --max-semi-space-size=${CAPPED_SEMI_SPACE_MB}: ${r.cappedMemory.samples.map((s) => `${s.polls} polls: RSS ${fmt(s.rssMb, 1)} MB (heap ${fmt(s.heapMb, 1)} live of ${fmt(s.heapTotalMb, 1)}, new space ${fmt(s.newSpaceMb, 0)})`).join('; ')}; ${r.cappedMemory.candles} candles in order: ${r.cappedMemory.ordered}`,
    `  memory after a full GC: ${r.memory.samples.map((s) => `${s.polls} polls: RSS ${fmt(s.rssMb, 1)} MB (heap ${fmt(s.heapMb, 1)} live of ${fmt(s.heapTotalMb, 1)}, new space ${fmt(s.newSpaceMb, 0)}, external ${fmt(s.externalMb, 1)}, array buffers ${fmt(s.arrayBuffersMb, 1)})`).join('; ')}; ${r.memory.candles} candles in order: ${r.memory.ordered}; ${fmt(r.memory.wallMs / 1000, 1)} s`,
    ...r.rows.map((row) => `  ${row.figure} [goal ${row.goal || '-'}: ${row.verdict}]`),
  ]
}
