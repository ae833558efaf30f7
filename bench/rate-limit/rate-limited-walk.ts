/**
 * Measurement 3b: requests/second of the SDK's forward walk against the standalone reference server
 * WITH its rate limit (10 requests/second per account, sliding window) and `--latency 250`, using
 * the SDK's defaults throughout: default concurrency, default limiter, default retries. Candle
 * requests are counted by the client's hooks (the free catalog call of the concurrent walk is not
 * counted). Each walk gets a fresh server, so no rate window carries over.
 */
import { createClient, type RequestEvent } from '../../src/index.js'
import { CLI } from '../support/build-cli.js'
import { startChildServer } from '../support/child-server.js'
import { API_KEY, NOW } from '../support/fixtures.js'
import { fmt, spread } from '../support/stats.js'
import { verdictOf, type BenchRow } from '../support/table.js'
import { fullPageRange, walkParams, type WalkRange } from '../support/walk-range.js'

export const RATE_TARGET = 9.5
export const LATENCY_MS = 250

const START_MS = Date.UTC(2020, 0, 1)
const CONCURRENT_PAGES = 300
const SEQUENTIAL_PAGES = 40
/** Requests per block of the rate's spread: 6 blocks in the 300-request walk. */
const BLOCK = 50

export interface RateWalk {
  label: string
  range: WalkRange
  concurrency: number | undefined
  candles: number
  /** Candle requests that got a response, by status. */
  statuses: Record<number, number>
  requests: number
  retries: number
  /** First candle request sent .. last candle response, ms. */
  spanMs: number
  /** requests / span. */
  rate: number
  /** (requests - 1) / (last send - first send): the pace of the sends alone. */
  sendRate: number
  /** The send rate of each block of BLOCK consecutive requests: the spread of the rate within the walk. */
  blockRates: number[]
  /** Most candle requests sent within any 1000 ms. */
  maxSentPerSecond: number
  wallMs: number
}

export interface RateLimitedWalks {
  concurrent: RateWalk
  sequential: RateWalk
  rows: BenchRow[]
  pass: boolean
}

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++
    best = Math.max(best, j - i + 1)
  }
  return best
}

async function walk(label: string, range: WalkRange, concurrency: number | undefined): Promise<RateWalk> {
  const server = await startChildServer('reference server (rate limited)', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', String(LATENCY_MS), '--now', NOW])
  try {
    const sent: number[] = []
    const answered: number[] = []
    const statuses: Record<number, number> = {}
    let retries = 0
    const candle = (e: RequestEvent) => e.endpoint === 'exchange_ohlcv'
    const client = createClient({
      apiKey: API_KEY,
      baseUrl: server.url,
      hooks: {
        onRequest: (e) => candle(e) && sent.push(performance.now()),
        onResponse: (e) => {
          if (!candle(e)) return
          answered.push(performance.now())
          statuses[e.status] = (statuses[e.status] ?? 0) + 1
        },
        onRetry: (e) => candle(e) && retries++,
      },
    })
    const t0 = performance.now()
    let candles = 0
    let previous = -Infinity
    for await (const c of client.exchangeOhlcvCandles(walkParams(range), concurrency === undefined ? {} : { concurrency })) {
      const t = Date.parse(c.close_ts)
      if (!(t > previous)) throw new Error(`${label}: ${c.close_ts} after ${new Date(previous).toISOString()}`)
      previous = t
      candles++
    }
    const wallMs = performance.now() - t0
    if (candles !== range.candles) throw new Error(`${label}: ${candles} candles, expected ${range.candles}`)
    const requests = answered.length
    const spanMs = Math.max(...answered) - sent[0]!
    return {
      label,
      range,
      concurrency,
      candles,
      statuses,
      requests,
      retries,
      spanMs,
      rate: (requests * 1000) / spanMs,
      sendRate: ((sent.length - 1) * 1000) / (sent.at(-1)! - sent[0]!),
      blockRates: Array.from({ length: Math.floor((sent.length - 1) / BLOCK) }, (_, b) => (BLOCK * 1000) / (sent[(b + 1) * BLOCK]! - sent[b * BLOCK]!)),
      maxSentPerSecond: maxInWindow(sent, 1000),
      wallMs,
    }
  } finally {
    await server.stop()
  }
}

export async function measureRateLimitedWalks(): Promise<RateLimitedWalks> {
  const concurrent = await walk('default iterator', fullPageRange(START_MS, CONCURRENT_PAGES), undefined)
  const sequential = await walk('sequential iterator', fullPageRange(START_MS, SEQUENTIAL_PAGES), 1)
  const ok = (w: RateWalk) => (w.statuses[429] ?? 0) === 0 && w.requests === w.range.pages
  // The rate's spread: the send rate of each block of 50 requests within the walk, after the first
  // (the limiter deliberately counts its first window from completion, see docs/sdk.md). A 429 or a
  // lost request fails the goal whatever the rate.
  const { low, high } = spread(concurrent.blockRates.slice(1))
  const byRate = verdictOf(concurrent.rate, low, high, RATE_TARGET)
  const verdict = !ok(concurrent) || !ok(sequential) ? 'not met' : byRate
  const rows: BenchRow[] = [
    {
      figure:
        `SDK defaults walking ${concurrent.range.pages} full pages at the service's 10/s limit, ${LATENCY_MS} ms latency: ${fmt(concurrent.rate, 2)} requests/s ` +
        `(${fmt(low, 2)}–${fmt(high, 2)} per block of ${BLOCK} after the first), ${concurrent.statuses[429] ?? 0} × 429 (sequential walk, for comparison: ${fmt(sequential.rate, 2)}/s, ${sequential.statuses[429] ?? 0} × 429)`,
      goal: `>= ${RATE_TARGET}/s, no 429`,
      verdict,
    },
  ]
  const pass = verdict !== 'not met'
  return { concurrent, sequential, rows, pass }
}

export function reportRateLimitedWalks(r: RateLimitedWalks): string[] {
  const lines = (w: RateWalk) => [
    `  ${w.label} (concurrency ${w.concurrency ?? 'default (8)'}): ${w.range.pages} full pages, ${w.range.start} .. ${w.range.end}, ${w.candles} candles in ascending order`,
    `      candle requests ${w.requests} (statuses ${JSON.stringify(w.statuses)}; 429s: ${w.statuses[429] ?? 0}; retries ${w.retries}); ` +
      `first sent .. last answered ${fmt(w.spanMs, 0)} ms (walk wall ${fmt(w.wallMs, 0)} ms)`,
    `      rate ${fmt(w.rate, 2)} requests/s (sends alone: ${fmt(w.sendRate, 2)}/s, per block of ${BLOCK}: [${w.blockRates.map((x) => fmt(x, 2)).join(', ')}]; most sent in any 1000 ms: ${w.maxSentPerSecond})`,
  ]
  const c = r.concurrent
  return [
    `3b. At the rate limit: node ${CLI} serve --latency ${LATENCY_MS} with its default 10 requests/s limit, a fresh server per walk;`,
    `    SDK defaults (limiter 10/s, retries, timeout); candle requests counted by hooks (catalog call excluded)`,
    ...lines(c),
    ...lines(r.sequential),
    `  default iterator: ${c.requests} requests / ${fmt(c.spanMs / 1000, 2)} s = ${fmt(c.rate, 2)} requests/s (target >= ${RATE_TARGET}), ` +
      `429s ${c.statuses[429] ?? 0} (target 0); sequential 429s ${r.sequential.statuses[429] ?? 0}  ${r.rows[0]!.verdict}`,
  ]
}
