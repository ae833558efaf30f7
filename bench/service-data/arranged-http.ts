/**
 * Section `arranged-http`: `putCandles` of 100,000 candles over HTTP, end to end: the client's
 * `JSON.stringify`, the POST to `/_mock/data/candles` of a `serve` child process, the server's read,
 * `JSON.parse`, check and store, until the answer is back. Each round posts to a fresh session, so
 * every round stores into an empty overlay (dropped again after the round, untimed, as a suite's
 * reset does). Beside it, in this process, the server's parts: `JSON.parse`, then
 * `service.data.putCandles` (check + store). The verdict: the median round's CPU seconds of client
 * and server together (the stages run one after another, so on a quiet machine the wall time nears
 * it; on a shared one a wait for a core is not the code's cost), wall seconds beside them.
 */
import { request } from 'node:http'
import type { ExchangeCandle } from '../../src/schemas/index.js'
import { createMockService } from '../../mocks/core/service/service.js'
import { CLI } from '../support/build-cli.js'
import { loadavg } from 'node:os'
import { startChildServer } from '../support/child-server.js'
import { NOW, NOW_MS, MINUTE } from '../support/fixtures.js'
import { fmt, median, withSpread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

/** Seconds for the 100,000-candle batch, end to end, at most. */
export const ARRANGED_HTTP_GOAL_S = 1
const BATCH = 100_000
const WARMUP_ROUNDS = 2
const ROUNDS = 7

export interface ArrangedHttp {
  /** End-to-end candles/s per round. */
  rates: number[]
  /** The body's size, bytes. */
  bytes: number
  /** Per round: candles per CPU second of client and server together (stringify + POST + the server's work); on a quiet machine the wall rate comes near it. */
  cpuRates: number[]
  /** Load average (1 min) at the start. */
  load: number
  /** Per round, ms: client stringify, whole request (POST to answer). */
  stringifyMs: number[]
  requestMs: number[]
  /** In this process, ms per batch: JSON.parse of the body, service.data.putCandles (check + store). */
  parseMs: number[]
  putMs: number[]
  rows: BenchRow[]
  pass: boolean
}

/** 100,000 one-minute candles of bitstamp BTC/USD ending at the bench's now, valid by every rule. */
export function arrangedBatch(count = BATCH): ExchangeCandle[] {
  const candles: ExchangeCandle[] = []
  const first = NOW_MS - (count - 1) * MINUTE
  for (let i = 0; i < count; i++) {
    const open = 100 + (i % 50)
    const close = open + ((i % 7) - 3) / 2
    candles.push({
      exchange: 'bitstamp',
      interval: '1m',
      base: 'BTC',
      quote: 'USD',
      close_ts: new Date(first + i * MINUTE).toISOString().replace('.000Z', 'Z'),
      open,
      high: Math.max(open, close) + 1,
      low: Math.min(open, close) - 1,
      close,
      base_volume: 2,
      quote_volume: 2 * open,
      source_provider: 'bench',
      source_channel: 'rest',
      flag: null,
    })
  }
  return candles
}

const ms = (t0: number) => performance.now() - t0

/**
 * POSTs `body` on a connection of its own (node:http, no agent): a kept-alive connection idle
 * while the next batch is stringified can be closed by the server (keepAliveTimeout 5 s) just as
 * the next POST starts on it, and a POST is not retried.
 */
function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export async function measureArrangedHttp(): Promise<ArrangedHttp> {
  const candles = arrangedBatch()
  const server = await startChildServer('serve', [CLI, 'serve', '--port', '0', '--now', NOW, '--journal-size', '0'])
  const rates: number[] = []
  const cpuRates: number[] = []
  const load = loadavg()[0]!
  const stringifyMs: number[] = []
  const requestMs: number[] = []
  let bytes = 0
  try {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const serverCpu0 = server.cpuMs()
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      const body = JSON.stringify(candles)
      const t1 = performance.now()
      const res = await post(`${server.url}/_sessions/bench-${round}/_mock/data/candles`, body)
      const total = ms(t0)
      const cpu = process.cpuUsage(cpu0)
      const cpuMs = (cpu.user + cpu.system) / 1000 + (server.cpuMs() - serverCpu0)
      if (res.status !== 200 || (JSON.parse(res.text) as { candles?: number }).candles !== BATCH) throw new Error(`POST /_mock/data/candles answered ${res.status} ${res.text.slice(0, 300)}`)
      // Untimed: the session's data dropped, as a suite's afterEach reset does, so every round starts from the same heap.
      await post(`${server.url}/_sessions/bench-${round}/_mock/data/reset`, '')
      bytes = Buffer.byteLength(body)
      if (round < WARMUP_ROUNDS) continue
      rates.push(BATCH / (total / 1000))
      cpuRates.push(BATCH / (cpuMs / 1000))
      stringifyMs.push(t1 - t0)
      requestMs.push(total - (t1 - t0))
    }
  } finally {
    await server.stop()
  }
  // The server's parts, in this process (no HTTP), each into a fresh session: JSON.parse, then check + store.
  const body = JSON.stringify(candles)
  const service = createMockService({ now: NOW })
  const parseMs: number[] = []
  const putMs: number[] = []
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const t3 = performance.now()
    const rows = JSON.parse(body) as ExchangeCandle[]
    const t4 = performance.now()
    const session = service.session(`parts-${round}`)
    session.data.putCandles(rows)
    const t5 = performance.now()
    session.data.reset()
    if (round < WARMUP_ROUNDS) continue
    parseMs.push(t4 - t3)
    putMs.push(t5 - t4)
  }
  const seconds = rates.map((r) => BATCH / r)
  const cpuSeconds = cpuRates.map((r) => BATCH / r)
  const rows: BenchRow[] = [
    {
      figure: `putCandles of ${BATCH.toLocaleString('en-US')} candles over HTTP, end to end (stringify + POST + parse + check + store): ${withSpread(cpuSeconds, 2)} s of CPU, client and server (the verdict, median of ${ROUNDS} rounds); ${withSpread(seconds, 2)} s wall (${withSpread(rates.map((r) => r / 1000), 0)}k candles/s; load average ${fmt(load, 1)} at the start)`,
      goal: `<= ${ARRANGED_HTTP_GOAL_S} s`,
      verdict: verdictOfRuns(cpuSeconds, ARRANGED_HTTP_GOAL_S, true),
    },
    {
      figure: `its parts, ms per batch: client stringify ${withSpread(stringifyMs, 0)}, POST to answer ${withSpread(requestMs, 0)}; in process, the server's JSON.parse ${withSpread(parseMs, 0)}, data.putCandles ${withSpread(putMs, 0)}`,
      goal: '',
      verdict: 'info',
    },
  ]
  return { rates, cpuRates, load, bytes, stringifyMs, requestMs, parseMs, putMs, rows, pass: rows[0]!.verdict !== 'not met' }
}

export function reportArrangedHttp(r: ArrangedHttp): string[] {
  return [
    `arranged-http. putCandles of ${BATCH} candles over HTTP (${fmt(r.bytes / 1e6, 1)} MB of JSON), ${ROUNDS} rounds after ${WARMUP_ROUNDS} of warm-up, each into a fresh session of a serve child:`,
    `  end to end: ${withSpread(r.cpuRates.map((x) => BATCH / x), 2, ' s')} of CPU per batch (goal <= ${ARRANGED_HTTP_GOAL_S} s, median); ${withSpread(r.rates.map((x) => BATCH / x), 2, ' s')} wall, ${withSpread(r.rates.map((x) => x / 1000), 0)}k candles/s`,
    `  per CPU second of client and server together: ${withSpread(r.cpuRates.map((x) => x / 1000), 0)}k candles/s (load average ${fmt(r.load, 1)} at the start)`,
    `  client JSON.stringify: ${withSpread(r.stringifyMs, 0, ' ms')}; POST until the answer: ${withSpread(r.requestMs, 0, ' ms')}`,
    `  the server's parts in this process: JSON.parse ${withSpread(r.parseMs, 0, ' ms')}, service.data.putCandles (check + store) ${withSpread(r.putMs, 0, ' ms')}`,
  ]
}
