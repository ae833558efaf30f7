import type { FollowEnd, FollowSeries, FollowSeriesId, MarketCandles } from '../../src/index.js'
import type { ExportArgs } from './args.js'
import type { FollowReporter } from './progress/index.js'
import type { RunTotals } from './runner.js'
import { seriesLabel, type Series } from './series.js'
import type { AnyCandle, Sink } from './sinks/index.js'

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
      if (candles.length > 0) written.set(series, Date.parse(candles.at(-1)!.close_ts))
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

/**
 * `export --follow`, once the history is written: follows every planned series with the SDK's
 * `followMany` (one limiter, polls spread, clock-driven), from right after each one's last stored
 * candle, and writes each page as it comes, whole, before taking the next. Resolves when every
 * series has ended (its exchange closed, or --end was reached); `signal` stops it after the page in
 * hand. Resuming needs nothing more than the output: the next run starts after its last candles.
 */
export async function followAll(
  client: MarketCandles,
  planned: readonly Series[],
  args: Pick<ExportArgs, 'start' | 'end'>,
  sink: Sink,
  reporter: FollowReporter,
  signal: AbortSignal,
  totals: RunTotals,
  serviceNow: (() => number) | undefined,
): Promise<FollowEnd[]> {
  const byId = new Map<string, Series>()
  const list: FollowSeries[] = []
  const complete: FollowEnd[] = []
  for (const series of planned) {
    const last = sink.lastStored(series)
    const start = last === undefined ? (args.start ?? series.first) : last + 1
    const follow = followSeries(series, start, args.end)
    // Stored up to --end already (a rerun after the follow ended): nothing is left to follow.
    if (args.end !== undefined && start > args.end) {
      const message = `${seriesLabel(series)} is stored up to --end ${new Date(args.end).toISOString()}: nothing left to follow`
      reporter.seriesEnded(message)
      complete.push({ series: { endpoint: follow.endpoint, interval: series.interval, base: series.base, quote: series.quote }, reason: 'end', message })
      continue
    }
    byId.set(idKey({ endpoint: follow.endpoint, source: series.source, interval: series.interval, base: series.base, quote: series.quote }), series)
    list.push(follow)
  }
  if (list.length === 0) return complete
  const live = client.followMany(list, { signal, ...(serviceNow === undefined ? {} : { now: serviceNow }) })
  for await (const page of live.pages()) {
    const id = page.series
    const series = byId.get(idKey({ ...id, source: id.exchange ?? id.method }))!
    if (page.candles.length > 0) {
      const candles: readonly AnyCandle[] = page.candles
      await sink.write(series, candles)
      totals.candles += candles.length
      totals.pages++
      reporter.pageWritten(seriesLabel(series), candles.length, candles.at(-1)!.close_ts, page.lagMs)
    }
    if (page.ended) reporter.seriesEnded(page.ended.message)
  }
  return [...complete, ...live.ended]
}
