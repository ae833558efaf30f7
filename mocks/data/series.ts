import type { AggregatedCandle, Asset, Exchange, ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'

/** A candle with its `close_ts` in epoch milliseconds, so walks never re-parse strings. */
export interface Timed<C> {
  readonly t: number
  readonly candle: C
}

/**
 * One candle series. Both walks are lazy, so a page costs what it yields, never the history length.
 * Bounds are inclusive and in epoch milliseconds; infinite bounds are allowed.
 */
export interface Series<C> {
  readonly interval: KnownInterval
  readonly base: string
  readonly quote: string
  /** Candles with `from <= close_ts <= to`, oldest first. */
  ascending(from: number, to: number): Iterable<Timed<C>>
  /** Candles with `from <= close_ts <= to`, newest first. */
  descending(to: number, from: number): Iterable<Timed<C>>
}

/**
 * What some series answer without a walk (internal, not part of the public `Series`): how many
 * candles lie in `[from, to]` and whether one closes at `t`. Counting what `removeCandles` drops
 * over years of 1m history would otherwise walk millions of candles.
 */
export interface Countable {
  count?(from: number, to: number): number | undefined
  has?(t: number): boolean | undefined
  /** Whether a candle closes at `t` that aggregation counts (one not flagged `outlier_excluded`). */
  contributesAt?(t: number): boolean | undefined
}

/** How many candles a series holds in `[from, to]`: counted when it can say, else walked. */
export function countIn(series: Series<unknown> & Countable, from: number, to: number): number {
  const counted = series.count?.(from, to)
  if (counted !== undefined) return counted
  let n = 0
  for (const _ of series.ascending(from, to)) n++
  return n
}

/** The raw series of one exchange. */
export interface ExchangeSeries extends Series<ExchangeCandle> {
  readonly exchange: string
}

/** A combined cross-exchange series. */
export interface AggregatedSeries extends Series<AggregatedCandle> {
  readonly method: string
}

/** Where the reference service reads its catalog and exchange candles from. */
export interface CandleStore {
  readonly exchanges: readonly Exchange[]
  readonly assets: readonly Asset[]
  /** Every series of one exchange at one interval. */
  seriesOf(exchange: string, interval: KnownInterval): readonly ExchangeSeries[]
}

/** The first element of an iterable, or `undefined`. */
export function first<T>(items: Iterable<T>): T | undefined {
  for (const item of items) return item
  return undefined
}
