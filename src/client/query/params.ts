import type { AggregatedOhlcvQuery, AggregatedPairsQuery, ExchangeOhlcvQuery, ExchangePairsQuery } from '../../contract/index.js'
import type { DateInput } from './to-wire-query.js'

/** `start`/`end` as a `Date`, epoch milliseconds or an ISO 8601 string. */
export type WithTimes<Q> = Omit<Q, 'start' | 'end'> & {
  /** Only candles with `close_ts >= start`; anchors the page forward, even with `end` set. */
  start?: DateInput
  /** Only candles with `close_ts <= end`; omitted means the latest available. */
  end?: DateInput
}

/** Parameters of {@link MarketCandles.exchangePairs}. */
export type ExchangePairsParams = ExchangePairsQuery
/** Parameters of {@link MarketCandles.aggregatedPairs}. */
export type AggregatedPairsParams = AggregatedPairsQuery
/** Parameters of {@link MarketCandles.exchangeOhlcv}: the wire query with friendlier times. */
export type ExchangeOhlcvParams = WithTimes<ExchangeOhlcvQuery>
/** Parameters of {@link MarketCandles.aggregatedOhlcv}: the wire query with friendlier times. */
export type AggregatedOhlcvParams = WithTimes<AggregatedOhlcvQuery>
