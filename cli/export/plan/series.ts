import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/values/known-values.js'
import type { PairCoverage } from '../../../src/index.js'
import type { ExportArgs } from '../flags/args.js'
import { ExportError } from './export-error.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

/** One series to export: a pair at an interval, on one exchange or aggregated by one method. */
export interface Series {
  kind: 'exchange' | 'aggregated'
  /** The exchange, or the aggregation method (undefined: the service's default). */
  source: string | undefined
  interval: string
  base: string
  quote: string
  /** The catalog's coverage of the series, epoch ms. */
  first: number
  last: number
}

/** `bitstamp BTC/USD 1h`, `aggregated BTC/USD 1h`: how messages and progress name a series. */
export function seriesLabel(s: Pick<Series, 'kind' | 'source' | 'interval' | 'base' | 'quote'>): string {
  const where = s.kind === 'exchange' ? s.source : s.source === undefined ? 'aggregated' : `aggregated ${s.source}`
  return `${where} ${s.base}/${s.quote} ${s.interval}`
}

/** The pairs of a catalog answer as `BASE/QUOTE`, for a 404 message. */
export function listPairs(pairs: readonly PairCoverage[]): string {
  return pairs.length === 0 ? '(none)' : pairs.map((p) => `${p.base}/${p.quote}`).join(', ')
}

/** A requested pair the catalog does not list. */
export class UnknownPairError extends ExportError {
  override name = 'UnknownPairError'
}

/** The series of a command, from the catalog's pairs answer; throws for a pair it does not list. */
export function selectSeries(args: ExportArgs, catalog: readonly PairCoverage[]): Series[] {
  const source = args.kind === 'exchange' ? args.exchange : args.method
  const toSeries = (p: PairCoverage): Series => ({
    kind: args.kind,
    source,
    interval: args.interval,
    base: p.base,
    quote: p.quote,
    first: parseTimestamp(p.first_close_ts),
    last: parseTimestamp(p.last_close_ts),
  })
  if (args.allPairs) return catalog.map(toSeries)
  return args.pairs.map(({ base, quote }) => {
    const entry = catalog.find((p) => p.base === base && p.quote === quote)
    if (entry === undefined) {
      const where = args.kind === 'exchange' ? `on ${args.exchange}` : `aggregated${args.method ? ` by ${args.method}` : ''}`
      throw new UnknownPairError(`${base}/${quote} has no ${args.interval} candles ${where}. Pairs there at ${args.interval}: ${listPairs(catalog)}`)
    }
    return toSeries(entry)
  })
}

/** Where a series' export starts and ends, after what the output already holds. */
export interface SeriesRange {
  /** Epoch ms of the first close_ts to fetch; undefined when nothing is left to fetch. */
  from: number | undefined
  to: number | undefined
  /** Candles expected from the catalog's coverage and the interval (an upper bound: outages), if known. */
  expected: number | undefined
}

/** The range left to fetch: after the last stored close_ts, from --start or the first candle. */
export function rangeOf(series: Series, args: Pick<ExportArgs, 'start' | 'end'>, lastStored: number | undefined): SeriesRange {
  let from = args.start ?? series.first
  if (lastStored !== undefined) from = Math.max(from, lastStored + 1)
  const to = args.end
  if (to !== undefined && from > to) return { from: undefined, to, expected: 0 }
  const step = isKnownInterval(series.interval) ? INTERVAL_MS[series.interval] : undefined
  const lo = Math.max(from, series.first)
  const hi = Math.min(to ?? series.last, series.last)
  const expected = step === undefined ? undefined : candlesBetween(lo, hi, step)
  return { from, to, expected }
}

/** How many close times on the grid of `step` lie from `lo` to `hi`, both included. */
export function candlesBetween(lo: number, hi: number, step: number): number {
  return hi < lo ? 0 : Math.floor(hi / step) - Math.ceil(lo / step) + 1
}
