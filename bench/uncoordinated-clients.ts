/**
 * Measurement 3d: several processes of one account, each with its own client and so its own rate
 * limiter (they cannot share one), walking forward at the same time against the standalone
 * reference server with its rate limit (10 counted requests/s per account, sliding window) and
 * `--latency 100`. SDK defaults throughout. 1, 2 and 4 clients side by side in one run, a fresh
 * server each: total 200s per second over the run, and the share of 429s among all candle answers.
 * Each configuration runs REPEATS times (interleaved: 1, 2, 4, 1, 2, 4, ...): how the account ends
 * up shared differs from run to run, so a figure is a median with its spread.
 * The clients use the account's two demo keys in turn (a key may be used by several processes).
 */
import { createClient, type RequestEvent } from '../src/index.js'
import { CLI } from './build-cli.js'
import { startChildServer } from './child-server.js'
import { MINUTE, NOW, PAGE_LIMIT } from './fixtures.js'
import { fmt, median, spread, verdict, withSpread } from './stats.js'
import { verdictOf, type BenchRow } from './table.js'
import { fullPageRange, walkParams } from './walk-range.js'

export const LATENCY_MS = 100
export const RATE_TARGET = 9
export const SHARE_429_TARGET = 0.1
/** Pages walked in all by each configuration, split evenly between its clients. */
const TOTAL_PAGES = 240
const CLIENT_COUNTS = [1, 2, 4] as const
/** Runs per client count. */
const REPEATS = 3
const START_MS = Date.UTC(2020, 0, 1)
const KEYS = ['demo-enterprise-key', 'demo-enterprise-key-2']

export interface UncoordinatedRun {
  clients: number
  ok: number
  limited: number
  other: number
  /** 200s per second, first request sent .. last answer. */
  rate: number
  share429: number
  spanMs: number
  /** 200s per client, to see how the account was shared. */
  perClient: number[]
}

export interface UncoordinatedClients {
  /** Every run, in the order they ran. */
  runs: UncoordinatedRun[]
  /** Per client count: its runs' rates and 429 shares, and the verdicts on their spreads. */
  rows: Array<{ clients: number; rates: number[]; shares429: number[]; rateVerdict: BenchRow['verdict']; shareVerdict: BenchRow['verdict'] }>
  pass: boolean
}

async function run(clients: number): Promise<UncoordinatedRun> {
  const server = await startChildServer('reference server (rate limited)', [CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--latency', String(LATENCY_MS), '--now', NOW])
  try {
    const sent: number[] = []
    const answered: number[] = []
    const counts = { ok: 0, limited: 0, other: 0 }
    const perClient = Array.from({ length: clients }, () => 0)
    const candle = (e: RequestEvent) => e.endpoint === 'exchange_ohlcv'
    const pages = TOTAL_PAGES / clients
    const walks = Array.from({ length: clients }, async (_, i) => {
      const client = createClient({
        apiKey: KEYS[i % KEYS.length],
        baseUrl: server.url,
        hooks: {
          onRequest: (e) => candle(e) && sent.push(performance.now()),
          onResponse: (e) => {
            if (!candle(e)) return
            answered.push(performance.now())
            if (e.status === 200) {
              counts.ok++
              perClient[i]!++
            } else if (e.status === 429) counts.limited++
            else counts.other++
          },
        },
      })
      // Each client walks its own stretch of 1m candles (no outage in them): different data, one account.
      const range = fullPageRange(START_MS + i * pages * PAGE_LIMIT * MINUTE, pages)
      let n = 0
      for await (const page of client.exchangeOhlcvPages(walkParams(range))) n += page.candles.length
      if (n !== range.candles) throw new Error(`client ${i}: ${n} candles, expected ${range.candles}`)
    })
    await Promise.all(walks)
    const spanMs = Math.max(...answered) - Math.min(...sent)
    const all = counts.ok + counts.limited + counts.other
    return { clients, ...counts, rate: (counts.ok * 1000) / spanMs, share429: counts.limited / all, spanMs, perClient }
  } finally {
    await server.stop()
  }
}

export async function measureUncoordinatedClients(): Promise<UncoordinatedClients> {
  const runs: UncoordinatedRun[] = []
  for (let r = 0; r < REPEATS; r++) for (const n of CLIENT_COUNTS) runs.push(await run(n))
  const rows = CLIENT_COUNTS.map((clients) => {
    const mine = runs.filter((x) => x.clients === clients)
    const rates = mine.map((x) => x.rate)
    const shares429 = mine.map((x) => x.share429)
    const other = mine.some((x) => x.other > 0)
    const rateSpread = spread(rates)
    const shareSpread = spread(shares429)
    return {
      clients,
      rates,
      shares429,
      rateVerdict: other ? ('not met' as const) : verdictOf(median(rates), rateSpread.low, rateSpread.high, RATE_TARGET),
      shareVerdict: other ? ('not met' as const) : verdictOf(median(shares429), shareSpread.low, shareSpread.high, SHARE_429_TARGET, true),
    }
  })
  return { runs, rows, pass: rows.every((x) => x.rateVerdict !== 'not met' && x.shareVerdict !== 'not met') }
}

export function reportUncoordinatedClients(r: UncoordinatedClients): string[] {
  return [
    `3d. Uncoordinated clients of one account (each its own limiter): node ${CLI} serve --latency ${LATENCY_MS}, 10 requests/s per account,`,
    `    a fresh server per run; ${TOTAL_PAGES} full pages in all per run, split between the clients; SDK defaults; ${REPEATS} runs per row`,
    `    clients | 200s | 429s | 200s/s (target >= ${RATE_TARGET}) | 429 share (target <= ${SHARE_429_TARGET * 100} %) | span s | 200s per client`,
    ...r.runs.map(
      (x) =>
        `    ${String(x.clients).padStart(7)} | ${String(x.ok).padStart(4)} | ${String(x.limited).padStart(4)} | ${fmt(x.rate, 2).padStart(21)} | ${`${fmt(x.share429 * 100, 1)} %`.padStart(26)} | ${fmt(x.spanMs / 1000, 1).padStart(6)} | ${x.perClient.join(' ')}` +
        (x.other > 0 ? ` (other statuses: ${x.other})` : ''),
    ),
    ...r.rows.map((x) => `    ${x.clients} client${x.clients === 1 ? ': ' : 's:'} median ${withSpread(x.rates)} requests/s; 429s ${withSpread(x.shares429.map((v) => v * 100), 1, ' %')}`),
    `  ${verdict(r.pass)}`,
  ]
}

/** Rows of the final table: per client count, the total rate and the 429 share, medians of the runs with their spread. */
export function tableUncoordinatedClients(r: UncoordinatedClients): BenchRow[] {
  return r.rows.flatMap((x) => {
    const who = `${x.clients} uncoordinated client${x.clients === 1 ? '' : 's'}, one account`
    return [
      { figure: `${who}: ${withSpread(x.rates)} requests/s answered 200 (median of ${x.rates.length} runs)`, goal: `>= ${RATE_TARGET}`, verdict: x.rateVerdict },
      { figure: `${who}: 429s ${withSpread(x.shares429.map((v) => v * 100), 1, ' %')} of answers`, goal: `<= ${SHARE_429_TARGET * 100} %`, verdict: x.shareVerdict },
    ]
  })
}
