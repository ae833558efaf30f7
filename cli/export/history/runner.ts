import { INTERVAL_MS, type KnownInterval } from '../../../src/schemas/values/known-values.js'
import type { MarketCandles } from '../../../src/index.js'
import type { ExportArgs } from '../flags/args.js'
import { coverageLine, trackCoverage, type SeriesCoverage } from './coverage.js'
import type { ProgressReporter } from '../progress/index.js'
import { PageResampler } from './page-resampler.js'
import { rangeOf, seriesLabel, type Series } from '../plan/series.js'
import type { AnyCandle, Sink } from '../sinks/index.js'

/** What a run has written so far. */
export interface RunTotals {
  series: number
  candles: number
  pages: number
}

/** A failure while exporting one series: the series is named in the message. */
export class SeriesFailure extends Error {
  override name = 'SeriesFailure'
  constructor(
    readonly series: Series,
    override readonly cause: unknown,
  ) {
    super(`${seriesLabel(series)}: ${(cause as Error)?.message ?? String(cause)}`)
  }
}

/**
 * Exports the series one after another (each one a forward walk with the SDK's ordered concurrent
 * paging), from after what the sink already holds. Pages are written in order; the next page is taken
 * while a write is in flight (up to the sink's pagesInFlight), so an abort or a failure leaves whole pages only.
 */
export async function exportAll(
  client: MarketCandles,
  planned: readonly Series[],
  args: Pick<ExportArgs, 'start' | 'end'> & Partial<Pick<ExportArgs, 'resample'>>,
  sink: Sink,
  reporter: ProgressReporter,
  signal: AbortSignal,
  totals: RunTotals = { series: 0, candles: 0, pages: 0 },
  coverage: SeriesCoverage[] = [],
): Promise<RunTotals> {
  for (const series of planned) {
    // With --resample the output holds the target interval: that series is resumed and written.
    const stored: Series = args.resample === undefined ? series : { ...series, interval: args.resample }
    const range = rangeOf(series, args, sink.lastStored(stored))
    const tracker = trackCoverage(series, range)
    const entry: SeriesCoverage = { series, storedInterval: stored.interval, stored: 0, report: undefined }
    coverage.push(entry)
    reporter.seriesStarted(seriesLabel(series), range.expected)
    if (range.from !== undefined) {
      const common = { interval: series.interval, base: series.base, quote: series.quote, start: range.from, end: range.to }
      const walk =
        series.kind === 'exchange'
          ? client.exchangeOhlcvPages({ ...common, exchange: series.source! }, { signal })
          : client.aggregatedOhlcvPages({ ...common, method: series.source }, { signal })
      const resampler = args.resample === undefined ? undefined : new PageResampler(args.resample, range.from, INTERVAL_MS[series.interval as KnownInterval])
      // Not async, and the page is not used once handed over: a suspended async function would hold
      // its candles until the write resolves, up to pagesInFlight pages that then outlive the young
      // generation and cost the collector (bench/export/export.ts 6c).
      const write = (candles: readonly AnyCandle[], source: number): Promise<void> => {
        const count = candles.length
        let written: Promise<void>
        try {
          written = Promise.resolve(count > 0 ? sink.write(stored, candles) : undefined)
        } catch (error) {
          written = Promise.reject(error)
        }
        return written.then(() => {
          entry.stored += count
          totals.candles += count
          if (source === 0) return
          totals.pages++
          reporter.pageWritten(source)
        })
      }
      // Writes in flight while the next page is taken (a sink that waits on a server, PostgreSQL,
      // overlaps its round trip with the walk): one, or as many as the sink gathers into a batch
      // (pagesInFlight). They are handed over in order, and a page counts only once its write has resolved.
      const depth = Math.max(1, sink.pagesInFlight ?? 1)
      const writing: Array<Promise<void>> = []
      try {
        for await (const page of walk) {
          if (page.candles.length === 0) continue
          tracker?.observeAll(page.candles)
          const candles = resampler ? resampler.page(page.candles) : page.candles
          if (writing.length >= depth) await writing.shift()
          entry.report = tracker?.report(false)
          const w = write(candles, page.candles.length)
          // Its failure is handled when it is awaited; until then it is not an unhandled rejection.
          w.catch(() => {})
          writing.push(w)
        }
        while (writing.length > 0) await writing.shift()
        // The last bucket is stored once the range covers it whole: a rerun finishes it otherwise.
        if (resampler) await write(resampler.end(Math.min(range.to ?? series.last, series.last)), 0)
      } catch (error) {
        // Writes still in flight settle before the failure is reported: every page counted is whole.
        await Promise.allSettled(writing)
        throw new SeriesFailure(series, error)
      }
    }
    entry.report = tracker?.report(true)
    totals.series++
    reporter.seriesDone()
    reporter.note(coverageLine(entry))
  }
  return totals
}
