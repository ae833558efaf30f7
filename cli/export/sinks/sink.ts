import type { AnyCandle } from '../../../src/schemas/index.js'
import { ExportError } from '../plan/export-error.js'
import type { Series } from '../plan/series.js'

// The one candle union (src/schemas/resources/any-candle.ts), for the sinks and their callers.
export type { AnyCandle }

/** Where pages go. Each page is written whole or not at all, so an interrupted run resumes cleanly. */
export interface Sink {
  /** The last stored close_ts of a series (epoch ms), where the next run continues; undefined when none. */
  lastStored(series: Series): number | undefined
  /** Writes one page of one series (ascending close_ts). Resolves once the page is handed to the OS. */
  write(series: Series, candles: readonly AnyCandle[]): void | Promise<void>
  /**
   * How many pages the export may hand to write() before the oldest has resolved (they are handed
   * over in order; each still counts once its own write resolves). A sink that stores several pages
   * in one transaction says how many it can gather; if one write fails, it stores no later page.
   * @default 1
   */
  readonly pagesInFlight?: number
  /** Flushes and closes. */
  close(): Promise<void>
}

/** Why a file cannot be used as the output: it exists but holds something else. */
export class OutputError extends ExportError {
  override name = 'OutputError'
}

/** The key of a series as it appears in its candles: exchange (or method), interval, base, quote. */
export function seriesKey(source: string, interval: string, base: string, quote: string): string {
  return `${source}\u0000${interval}\u0000${base}\u0000${quote}`
}

/** The key of a candle's series. */
export function candleSeriesKey(c: AnyCandle): string {
  return seriesKey('exchange' in c ? c.exchange : c.method, c.interval, c.base, c.quote)
}

/** The key of a planned series (its method is always named: see run-export). */
export function plannedSeriesKey(s: Series): string {
  return seriesKey(s.source!, s.interval, s.base, s.quote)
}
