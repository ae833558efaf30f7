import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/values/known-values.js'
import { renameSync, writeFileSync } from 'node:fs'
import { GapTracker, type GapReport } from '../../../src/pagination/gap-tracker.js'
import { ExportError } from '../plan/export-error.js'
import { groupedNumber } from '../flags/grouped-number.js'
import { seriesLabel, type Series, type SeriesRange } from '../plan/series.js'
import { plural } from '../../../src/internal/plural.js'


/** What one series of a run stored against what its range should hold. */
export interface SeriesCoverage {
  series: Series
  /** The interval stored: the series' own, or the `--resample` target. */
  storedInterval: string
  /** Candles written by this run (resampled candles with --resample). */
  stored: number
  /** The source candles of this run's range: expected at the interval, received, gaps. */
  report: GapReport | undefined
}

/**
 * Counts a series' source candles against its range, clipped to the catalog's coverage (the
 * service has nothing before its first candle or after its last), without keeping candles.
 */
export function trackCoverage(series: Series, range: SeriesRange): GapTracker | undefined {
  const step = isKnownInterval(series.interval) ? INTERVAL_MS[series.interval] : undefined
  if (step === undefined || range.from === undefined) return undefined
  return new GapTracker(series.interval, step, Math.max(range.from, series.first), Math.min(range.to ?? series.last, series.last))
}

const count = groupedNumber

/** The line that ends a series: candles stored, expected, gaps (the largest named). */
export function coverageLine(c: SeriesCoverage): string {
  const label = seriesLabel(c.series) + (c.storedInterval === c.series.interval ? '' : ` → ${c.storedInterval}`)
  const r = c.report
  if (r === undefined || r.expected === 0 && r.received === 0) return `${label}: ${plural(c.stored, 'candle', count(c.stored))} stored, nothing new in range`
  const source = c.storedInterval === c.series.interval ? '' : ` from ${plural(r.received, `${r.interval} candle`, count(r.received))}`
  const stored = `${plural(c.stored, 'candle', count(c.stored))} stored${source}, ${count(r.expected)} ${c.storedInterval === c.series.interval ? '' : `${r.interval} `}expected`
  if (r.gaps.length === 0) return `${label}: ${stored}, no gaps`
  const largest = r.gaps.reduce((a, b) => (b.missing > a.missing ? b : a))
  const span = largest.from === largest.to ? largest.from : `${largest.from} to ${largest.to}`
  return `${label}: ${stored}, ${count(r.missing)} missing in ${count(r.gaps.length)} gap${r.gaps.length === 1 ? '' : 's'}, the largest ${span} (${count(largest.missing)} candle${largest.missing === 1 ? '' : 's'})`
}

/** The same per series for machines: `--report FILE.json`. */
export function coverageJson(entries: readonly SeriesCoverage[]): object {
  return {
    series: entries.map(({ series, storedInterval, stored, report }) => ({
      [series.kind === 'exchange' ? 'exchange' : 'method']: series.source,
      base: series.base,
      quote: series.quote,
      interval: series.interval,
      stored_interval: storedInterval,
      stored,
      from: report?.from ?? null,
      to: report?.to ?? null,
      expected: report?.expected ?? 0,
      received: report?.received ?? 0,
      missing: report?.missing ?? 0,
      complete: report?.complete ?? true,
      gaps: report?.gaps ?? [],
    })),
  }
}

/** Writes the report file whole (a temporary file renamed over it). */
export function writeCoverageReport(path: string, entries: readonly SeriesCoverage[]): void {
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(coverageJson(entries), null, 2) + '\n')
    renameSync(`${path}.tmp`, path)
  } catch (error) {
    throw new ExportError(`cannot write the report ${path}: ${(error as Error).message}`)
  }
}
