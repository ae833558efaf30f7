import type { MarketCandles } from '../../src/index.js'
import type { ExportArgs } from './args.js'
import type { ProgressReporter } from './progress/index.js'
import { rangeOf, seriesLabel, type Series } from './series.js'
import type { Sink } from './sinks/index.js'

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
 * paging), from after what the sink already holds. Every page is written before the next is taken,
 * so an abort or a failure leaves whole pages only.
 */
export async function exportAll(
  client: MarketCandles,
  planned: readonly Series[],
  args: Pick<ExportArgs, 'start' | 'end'>,
  sink: Sink,
  reporter: ProgressReporter,
  signal: AbortSignal,
  totals: RunTotals = { series: 0, candles: 0, pages: 0 },
): Promise<RunTotals> {
  for (const series of planned) {
    const range = rangeOf(series, args, sink.lastStored(series))
    reporter.seriesStarted(seriesLabel(series), range.expected)
    if (range.from !== undefined) {
      const common = { interval: series.interval, base: series.base, quote: series.quote, start: range.from, end: range.to }
      const walk =
        series.kind === 'exchange'
          ? client.exchangeOhlcvPages({ ...common, exchange: series.source! }, { signal })
          : client.aggregatedOhlcvPages({ ...common, method: series.source }, { signal })
      try {
        for await (const page of walk) {
          if (page.candles.length === 0) continue
          await sink.write(series, page.candles)
          totals.candles += page.candles.length
          totals.pages++
          reporter.pageWritten(page.candles.length)
        }
      } catch (error) {
        throw new SeriesFailure(series, error)
      }
    }
    totals.series++
    reporter.seriesDone()
  }
  return totals
}
