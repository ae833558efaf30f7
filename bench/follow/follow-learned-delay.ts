/**
 * Section "follow-learned-delay": a follow without `settleMs` learns each series' publish delay
 * and asks just after it. At clock rate 1 (real time: about 7 minutes):
 *
 * a. 3 `1m` series on `serve --publish-delay 0` and 3 on `serve --publish-delay 1500`, each
 *    followed twice, by clients of their own: one learning the service's time from the `Date`
 *    header (no `now`, as in production), one given it (`now`, from `GET /_mock/clock`, as tests
 *    do). The lag from when each candle became available (its close plus the publish delay, on
 *    the service's clock read from `GET /_mock/clock`) to its delivery, and requests per series
 *    per interval once learnt (the first LEARNING candles after the start are the learning).
 *    Beside each series, its median round trip (the goal is 300 ms plus one).
 *    Besides its candle requests, a follow that reads the clock from `Date` headers sends a few
 *    probes (the public exchange list, never counted): counted apart.
 * b. Meanwhile, 500 `1m` series in one `followMany` without `settleMs` (bench/follow/follow.ts's server
 *    of 500 listings, its clock shifted by months): every candle's lag from its close, and 429s.
 * c. Meanwhile, the documented follow (no `now`, no `settleMs`) of 3 `1m` series against
 *    `serve --clock-rate 60`: the follow learns the clock's speed from the `Date` headers. Wall time
 *    from each candle's close to its delivery, and requests per series per interval from the start.
 */
import { createClient } from '../../src/index.js'
import { CLI } from '../support/build-cli.js'
import { startChildServer, type ChildServer } from '../support/child-server.js'
import { followMany, startManyServer, type ManyRun } from './follow.js'
import { serviceClockOf } from './service-clock-model.js'
import { fmt, median, quantile, spread } from '../support/stats.js'
import { verdictOfRuns, type BenchRow } from '../support/table.js'

const MIN = 60_000
const DELAYS = [0, 1_500]
const PAIRS = ['BTC/USD', 'ETH/USD', 'XRP/USD']
/** Intervals followed after the start candle; the first LEARNING of them are the learning. */
// The learning is the first 2-3 candles (docs/following.md): with 3 counted as learning, 5 steady ones.
const INTERVALS = 7
const LEARNING = 3
const LAG_MARGIN_MS = 300
const MAX_REQUESTS = 1.05
const CLOCKS: ClockSource[] = ['Date', 'now']
/** Part c: the clock's speed, and the intervals followed from the start (wall seconds at 60x). */
const FAST_RATE = 60
const FAST_INTERVALS = 40

type ClockSource = 'Date' | 'now'

interface SeriesRun {
  pair: string
  publishDelayMs: number
  clock: ClockSource
  /** Lag after availability of each steady candle (ms, service time). */
  lagsMs: number[]
  learningRequests: number
  steadyRequests: number
  steadyCandles: number
  rttMs: number
  settleMs: number
  /** Answers with status 429 (the account's window is shared by the series of one server). */
  rateLimited: number
  /** Requests of the public exchange list: the closing dates, and the clock probes of a follow without `now`. */
  catalog: number
  /** Candle requests before each candle after the start one, in order (0: it came in the page of the one before). */
  perCandle: number[]
}

async function followOne(server: ChildServer, pair: string, publishDelayMs: number, clock: ClockSource, truth: () => number, end: number): Promise<SeriesRun> {
  const [base, quote] = pair.split('/') as [string, string]
  let requests = 0
  let rateLimited = 0
  let catalog = 0
  let sinceCandle = 0
  const rtts: number[] = []
  // One account per clock source, so the two sets of series never share a rate window.
  const client = createClient({
    apiKey: clock === 'Date' ? 'demo-pro-key' : 'demo-enterprise-key',
    baseUrl: server.url,
    hooks: {
      onRequest: (e) => void (e.endpoint === 'exchange_ohlcv' ? (requests++, sinceCandle++) : e.endpoint === 'exchanges' && catalog++),
      onResponse: (e) => void (e.endpoint === 'exchange_ohlcv' && (rtts.push(e.durationMs), e.status === 429 && rateLimited++)),
    },
  })
  const run: SeriesRun = { pair, publishDelayMs, clock, lagsMs: [], learningRequests: 0, steadyRequests: 0, steadyCandles: 0, rttMs: 0, settleMs: 0, rateLimited: 0, catalog: 0, perCandle: [] }
  const live = client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base, quote, end }, clock === 'now' ? { now: truth } : {})
  let n = 0
  for await (const candle of live) {
    const available = Date.parse(candle.close_ts) + publishDelayMs
    if (n > 0) run.perCandle.push(sinceCandle)
    sinceCandle = 0
    if (n === 0) requests = 0 // the latest candle at the start: not part of the learning
    else if (n <= LEARNING) {
      if (n === LEARNING) {
        run.learningRequests = requests
        requests = 0
      }
    } else {
      run.lagsMs.push(truth() - available)
      run.steadyCandles++
    }
    n++
  }
  run.steadyRequests = requests
  run.rttMs = median(rtts)
  run.settleMs = live.state.settleMs
  run.rateLimited = rateLimited
  run.catalog = catalog
  return run
}

interface FastRun {
  pair: string
  /** Wall ms from each candle's close (after the first) to its delivery. */
  wallLagsMs: number[]
  /** Wall ms between consecutive deliveries. */
  gapsMs: number[]
  requests: number
  intervals: number
  catalog: number
}

/** Part c: the documented follow, from its start, against a clock at FAST_RATE (its speed learnt from Date). */
async function followFast(server: ChildServer, pair: string, truth: () => number, end: number): Promise<FastRun> {
  const [base, quote] = pair.split('/') as [string, string]
  let requests = 0
  let catalog = 0
  const client = createClient({
    apiKey: 'demo-pro-key',
    baseUrl: server.url,
    hooks: { onRequest: (e) => void (e.endpoint === 'exchange_ohlcv' ? requests++ : e.endpoint === 'exchanges' && catalog++) },
  })
  const run: FastRun = { pair, wallLagsMs: [], gapsMs: [], requests: 0, intervals: 0, catalog: 0 }
  let first: number | undefined
  let last = 0
  for await (const candle of client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base, quote, end })) {
    const close = Date.parse(candle.close_ts)
    const at = performance.now()
    if (first === undefined) first = close
    else {
      run.wallLagsMs.push((truth() - close) / FAST_RATE)
      run.gapsMs.push(at - last)
    }
    last = at
  }
  run.requests = requests
  run.intervals = (end - first!) / MIN
  run.catalog = catalog
  return run
}

export interface LearnedDelayBench {
  series: SeriesRun[]
  fast: FastRun[]
  many: ManyRun
  rows: BenchRow[]
  pass: boolean
}

export async function measureFollowLearnedDelay(): Promise<LearnedDelayBench> {
  const servers = await Promise.all(DELAYS.map((d) => startChildServer(`reference server (publish delay ${d} ms)`, [CLI, 'serve', '--port', '0', '--clock-rate', '1', '--publish-delay', String(d)])))
  const fastServer = await startChildServer(`reference server (clock rate ${FAST_RATE})`, [CLI, 'serve', '--port', '0', '--clock-rate', String(FAST_RATE)])
  const manyServer = await startManyServer()
  try {
    const truths = await Promise.all(servers.map((s) => serviceClockOf(s.url, 1)))
    const runs = DELAYS.flatMap((d, i) => {
      const end = Math.ceil(truths[i]!() / MIN) * MIN + INTERVALS * MIN
      return CLOCKS.flatMap((c) => PAIRS.map((p) => followOne(servers[i]!, p, d, c, truths[i]!, end)))
    })
    const fastTruth = await serviceClockOf(fastServer.url, FAST_RATE)
    const fastEnd = Math.ceil(fastTruth() / MIN) * MIN + FAST_INTERVALS * MIN
    const [series, fast, many] = await Promise.all([Promise.all(runs), Promise.all(PAIRS.map((p) => followFast(fastServer, p, fastTruth, fastEnd))), followMany(manyServer, undefined)])
    return { series, fast, many, ...tableOf(series, fast, many) }
  } finally {
    await Promise.all([...servers.map((s) => s.stop()), fastServer.stop(), manyServer.stop()])
  }
}

const perInterval = (r: SeriesRun) => r.steadyRequests / r.steadyCandles

function tableOf(series: SeriesRun[], fast: FastRun[], many: ManyRun): { rows: BenchRow[]; pass: boolean } {
  const rows: BenchRow[] = []
  for (const d of DELAYS) for (const clock of CLOCKS) {
    const runs = series.filter((r) => r.publishDelayMs === d && r.clock === clock)
    const lags = runs.map((r) => median(r.lagsMs))
    // Each series against its own goal: 300 ms plus its round trip.
    const over = runs.map((r) => median(r.lagsMs) - r.rttMs)
    const rtt = median(runs.map((r) => r.rttMs))
    const lag = spread(lags)
    const o = spread(over)
    const req = spread(runs.map(perInterval))
    rows.push({
      figure: `learnt settle, publish delay ${d} ms, ${runs.length} 1m series (clock 1x, service time ${clock === 'Date' ? 'from Date headers' : 'given (now)'}): median lag after a candle became available ${fmt(median(lags), 0)} ms (${fmt(lag.low, 0)}–${fmt(lag.high, 0)}), less a round trip (median ${fmt(rtt, 0)} ms) ${fmt(median(over), 0)} ms (${fmt(o.low, 0)}–${fmt(o.high, 0)})`,
      goal: `<= ${LAG_MARGIN_MS} ms + 1 round trip`,
      verdict: verdictOfRuns(over, LAG_MARGIN_MS, true),
    })
    rows.push({
      figure: `the same, requests per series per interval once learnt: ${fmt(median(runs.map(perInterval)), 2)} (${fmt(req.low, 2)}–${fmt(req.high, 2)}); while learning (first ${LEARNING} candles): ${runs.map((r) => r.learningRequests).join(', ')} requests; settle learnt ${runs.map((r) => r.settleMs).join(', ')} ms; besides, exchange-list requests (closing dates${clock === 'Date' ? ', clock probes' : ''}) ${runs.map((r) => r.catalog).join(', ')} per series over the run`,
      goal: `<= ${MAX_REQUESTS}`,
      verdict: verdictOfRuns(runs.map(perInterval), MAX_REQUESTS, true),
    })
  }
  const fastPer = fast.map((r) => r.requests / r.intervals)
  const fastReq = spread(fastPer)
  const fastLags = spread(fast.map((r) => median(r.wallLagsMs)))
  const fastGaps = fast.flatMap((r) => r.gapsMs)
  rows.push({
    figure: `the documented follow (no now, no settleMs) of ${fast.length} 1m series against serve --clock-rate ${FAST_RATE}, its speed learnt from Date, ${FAST_INTERVALS} intervals from the start: requests per series per interval ${fmt(median(fastPer), 3)} (${fmt(fastReq.low, 3)}–${fmt(fastReq.high, 3)}); wall time from close to delivery median ${fmt(median(fast.map((r) => median(r.wallLagsMs))), 0)} ms (${fmt(fastLags.low, 0)}–${fmt(fastLags.high, 0)}), max ${fmt(Math.max(...fast.flatMap((r) => r.wallLagsMs)), 0)} ms; between deliveries median ${fmt(median(fastGaps), 0)} ms, max ${fmt(Math.max(...fastGaps), 0)} ms; clock probes and closing dates ${fast.map((r) => r.catalog).join(', ')} requests per series`,
    goal: `<= ${MAX_REQUESTS}`,
    verdict: verdictOfRuns(fastPer, MAX_REQUESTS, true),
  })
  const manyMax = Math.max(...many.lagsMs)
  rows.push({
    figure: `${many.series} 1m series in one followMany, learnt settle (shifted service clock, learnt from Date), ${many.candles} candles: lag from close median ${fmt(median(many.lagsMs) / 1000, 2)} s, p99 ${fmt(quantile(many.lagsMs, 0.99) / 1000, 2)} s, max ${fmt(manyMax / 1000, 2)} s; ${many.rateLimited} x 429`,
    goal: 'every candle <= 60 s, 0 x 429',
    verdict: many.everySeriesComplete && manyMax <= MIN && many.rateLimited === 0 ? 'met' : 'not met',
  })
  return { rows, pass: rows.every((r) => r.verdict !== 'not met') }
}

export function reportFollowLearnedDelay(r: LearnedDelayBench): string[] {
  return [
    `follow-learned-delay. A follow without settleMs learns the publish delay (clock 1x, ${INTERVALS} intervals, the first ${LEARNING} learning)`,
    ...r.series.map(
      (s) =>
        `  delay ${s.publishDelayMs} ms, ${s.clock}, ${s.pair}: lags after availability ${s.lagsMs.map((x) => fmt(x, 0)).join(', ')} ms; rtt ${fmt(s.rttMs, 0)} ms; requests ${s.learningRequests} learning + ${s.steadyRequests} for ${s.steadyCandles} candles (per candle ${s.perCandle.join(' ')}); ${s.rateLimited} x 429; settle ${s.settleMs} ms; exchange-list requests ${s.catalog}`,
    ),
    ...r.fast.map(
      (f) =>
        `  clock rate ${FAST_RATE}, Date, ${f.pair}: ${f.requests} requests for ${f.intervals} intervals; wall ms from close to delivery ${f.wallLagsMs.map((x) => fmt(x, 0)).join(', ')}; exchange-list requests ${f.catalog}`,
    ),
    `  followMany: ${r.many.series} series, ${r.many.candles} candles after the first boundary in ${fmt(r.many.wallMs / 1000, 1)} s, every series complete: ${r.many.everySeriesComplete}`,
    ...r.rows.map((row) => `  ${row.figure} [goal ${row.goal || '-'}: ${row.verdict}]`),
  ]
}
