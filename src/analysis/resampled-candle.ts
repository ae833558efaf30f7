import type { AggregatedCandle, ExchangeCandle } from '../schemas/index.js'

/** What a resampled candle tells beyond the candle itself. */
export interface BucketFill {
  /** How many source candles the bucket holds. */
  source_candles: number
  /** How many source candles the bucket can hold: its length over the source interval. */
  source_expected: number
  /** `source_candles === source_expected`: the bucket holds every candle it can. */
  complete: boolean
  /**
   * `false` for a forming bucket (option `forming`): more candles may still change it. Every bucket
   * is emitted once with `final: true`.
   */
  final: boolean
}

/**
 * A candle built from the source candles of one bucket: the source's fields with `interval` the
 * target and `close_ts` the bucket's end, and how full the bucket is.
 */
export type ResampledCandle<C extends ExchangeCandle | AggregatedCandle = ExchangeCandle | AggregatedCandle> = C & BucketFill
