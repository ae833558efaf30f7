import type { FollowEnd, FollowSeries, FollowSeriesId, FollowState, MarketCandles } from '../../../src/index.js'
import type { ExportArgs } from '../flags/args.js'
import type { FollowReporter } from '../progress/index.js'
import type { RunTotals } from '../history/runner.js'
import type { ExportState } from '../metrics/export-state.js'
import { seriesKey } from '../metrics/series-key.js'
import { outageReason } from '../outage/transient-error.js'
import type { OutageWatch } from '../outage/outage-watch.js'
import { seriesLabel, type Series } from '../plan/series.js'
import type { AnyCandle, Sink } from '../sinks/index.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

/**
 * A sink that also knows what this run has written: a line file reads its last candles once, when
 * opened, and the follow starts after the history just written.
 */
export function trackLastWritten(sink: Sink): Sink {
  const written = new Map<Series, number>()
  return {
    lastStored: (series) => written.get(series) ?? sink.lastStored(series),
    async write(series, candles) {
      await sink.write(series, candles)
      if (candles.length > 0) written.set(series, parseTimestamp(candles.at(-1)!.close_ts))
    },
    close: () => sink.close(),
  }
}

const idKey = (s: Pick<FollowSeriesId, 'endpoint' | 'interval' | 'base' | 'quote'> & { source: string | undefined }) => `${s.endpoint}\u0000${s.source ?? ''}\u0000${s.interval}\u0000${s.base}\u0000${s.quote}`

/** The SDK's description of a planned series, following on from `start` (epoch ms) up to --end. */
function followSeries(series: Series, start: number, end: number | undefined): FollowSeries {
  const common = { interval: series.interval, base: series.base, quote: series.quote, start, ...(end === undefined ? {} : { end }) }
  return series.kind === 'exchange'
    ? { endpoint: 'exchange_ohlcv', exchange: series.source!, ...common }
    : { endpoint: 'aggregated_ohlcv', ...(series.source === undefined ? {} : { method: series.source }), ...common }
}

/** What the follow of an export works with. */
export interface FollowContext {
  client: MarketCandles
  planned: readonly Series[]
  args: Pick<ExportArgs, 'start' | 'end'>
  sink: Sink
  reporter: FollowReporter
  /** Stops the follow after the page in hand (SIGINT, SIGTERM). */
  signal: AbortSignal
  totals: RunTotals
  /** The service's clock when the export knows it (--mock, --clock-rate); else the follow learns it. */
  serviceNow: (() => number) | undefined
  /** Else, the speed of the service's clock as --clock-rate gives it (the SDK learns it anyway). */
  clockRate?: number | undefined
  /** The export's figures (metrics, /healthz). */
  state: ExportState
  /** Outage lines. */
  outages: OutageWatch
}

/**
 * `export --follow`, once the history is written: follows every planned series with the SDK's
 * `followMany` (one limiter, polls spread, clock-driven), from right after each one's last stored
 * candle, and writes each page as it comes, whole, before taking the next. Resolves when every
 * series has ended (its exchange closed, or --end was reached); `signal` stops it after the page in
 * hand. An outage of any length is waited out by the SDK (`maxOutageMs` unbounded): its state
 * changes feed the outage lines (retrying: one starts; live again: it is over). Other errors end
 * it. Resuming needs nothing more than the output: the next run starts after its last candles.
 */
export async function followAll(ctx: FollowContext): Promise<FollowEnd[]> {
  const { client, planned, args, sink, reporter, signal, totals, state, outages } = ctx
  const ends: FollowEnd[] = []
  const endSeries = (series: Series, end: FollowEnd) => {
    ends.push(end)
    reporter.seriesEnded(end.message)
    const key = seriesKey(series)
    const figures = state.series.get(key)
    if (figures) figures.ended = end.reason
    outages.ended(key)
  }
  const byId = new Map<string, Series>()
  const list: FollowSeries[] = []
  for (const series of planned) {
    const last = sink.lastStored(series)
    const start = last === undefined ? (args.start ?? series.first) : last + 1
    const follow = followSeries(series, start, args.end)
    // Stored up to --end already (a rerun after the follow ended): nothing is left to follow.
    if (args.end !== undefined && start > args.end) {
      const message = `${seriesLabel(series)} is stored up to --end ${new Date(args.end).toISOString()}: nothing left to follow`
      endSeries(series, { series: { endpoint: follow.endpoint, interval: series.interval, base: series.base, quote: series.quote }, reason: 'end', message })
      continue
    }
    byId.set(idKey({ endpoint: follow.endpoint, source: series.source, interval: series.interval, base: series.base, quote: series.quote }), series)
    list.push(follow)
  }
  if (list.length === 0) return ends
  const live = client.followMany(list, {
    signal,
    maxOutageMs: Infinity,
    onStateChange: (followState) => reportState(followState, outages),
    ...(ctx.serviceNow === undefined ? (ctx.clockRate === undefined ? {} : { clockRate: ctx.clockRate }) : { now: ctx.serviceNow }),
  })
  state.serviceNow = ctx.serviceNow ?? (() => live.serviceNow())
  state.followStatuses = () => live.seriesStates().map((s) => ({ key: seriesKey(sourceOf(s.series)), status: s.status }))
  state.followingSince ??= performance.now()
  outages.following([...byId.values()].map(seriesKey), (key) => atEdge(state, key))
  for await (const page of live.pages()) {
    const id = page.series
    const series = byId.get(idKey({ ...id, source: id.exchange ?? id.method }))!
    if (page.candles.length > 0) {
      const candles: readonly AnyCandle[] = page.candles
      await sink.write(series, candles)
      totals.candles += candles.length
      totals.pages++
      reporter.pageWritten(seriesLabel(series), candles.length, candles.at(-1)!.close_ts, page.lagMs)
      outages.pageWritten(seriesKey(series), candles.length)
    }
    if (page.ended) endSeries(series, page.ended)
  }
  return ends
}

/** The follow's overall state as outage lines: retrying starts an outage, catching up or live means the service answers, live ends it. */
function reportState(followState: FollowState, outages: OutageWatch): void {
  // A throw here would end the follow: the lines are never worth that.
  try {
    if (followState.status === 'retrying') outages.failure(outageReason(followState.lastError), true)
    else if (followState.status === 'catching-up') outages.answered()
    else if (followState.status === 'live') outages.live()
  } catch {
    // ignored: see above
  }
}

/** A series id of the SDK as the metrics' key takes it. */
function sourceOf(id: FollowSeriesId): Pick<Series, 'kind' | 'source' | 'interval' | 'base' | 'quote'> {
  return { kind: id.endpoint === 'exchange_ohlcv' ? 'exchange' : 'aggregated', source: id.exchange ?? id.method, interval: id.interval, base: id.base, quote: id.quote }
}

/**
 * Whether a series' stored candles reach the edge of the service's time: its newest close within
 * an interval, the settle delay and a margin (5 s, or a tenth of the interval) of now.
 */
export function atEdge(state: ExportState, key: string): boolean {
  const figures = state.series.get(key)
  if (figures === undefined || figures.ended !== undefined || figures.intervalMs === undefined) return true
  const lag = state.lagMs(figures)
  return lag !== undefined && lag <= figures.intervalMs + DEFAULT_SETTLE_MS + Math.max(5000, figures.intervalMs / 10)
}

/** The follow's default settle delay (the SDK's): a candle is asked for this long after its close. */
const DEFAULT_SETTLE_MS = 2000
