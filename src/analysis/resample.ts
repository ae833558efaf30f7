import { checkKnownKeys } from '../internal/known-keys.js'
import type { AggregatedCandle, ExchangeCandle } from '../schemas/index.js'
import { BucketBuilder, type BuilderOptions } from './bucket-builder.js'
import { bucketGrid } from './bucket-grid.js'
import type { ResampledCandle } from './resampled-candle.js'

/**
 * Options of {@link resample}.
 * @example
 * resample(walk, '15m', { dropPartial: true })  // only buckets that hold every candle they can
 * resample(follow, '15m', { forming: true })    // a live candle: updated as each 1m candle arrives
 */
export interface ResampleOptions {
  /**
   * Leaves out buckets that hold fewer source candles than they can: usually the first and last
   * of a range that does not start and end on the target's boundaries, and buckets with gaps.
   * @default false
   */
  dropPartial?: boolean
  /**
   * Also emits the bucket being formed after each source candle that does not complete it, with
   * `final: false`; every bucket is still emitted once with `final: true` (when its last candle
   * arrives, when a candle of a later bucket arrives, or when the source ends). For live sources.
   * @default false
   */
  forming?: boolean
}

function builderOptions(options: ResampleOptions): BuilderOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('resample options must be an object')
  checkKnownKeys('resample', options, ['dropPartial', 'forming'])
  const { dropPartial = false, forming = false } = options
  if (typeof dropPartial !== 'boolean') throw new TypeError(`dropPartial must be true or false, got ${String(dropPartial)}`)
  if (typeof forming !== 'boolean') throw new TypeError(`forming must be true or false, got ${String(forming)}`)
  return { dropPartial, forming }
}

function* resampleSync<C extends ExchangeCandle | AggregatedCandle>(source: Iterable<C>, builder: BucketBuilder<C>): Generator<ResampledCandle<C>, undefined> {
  const ready = builder.ready
  for (const candle of source) {
    builder.push(candle)
    if (ready.length === 0) continue
    for (let i = 0; i < ready.length; i++) yield ready[i]!
    ready.length = 0
  }
  builder.finish()
  yield* ready
}

async function* resampleAsync<C extends ExchangeCandle | AggregatedCandle>(source: AsyncIterable<C>, builder: BucketBuilder<C>): AsyncGenerator<ResampledCandle<C>, undefined> {
  const ready = builder.ready
  for await (const candle of source) {
    builder.push(candle)
    if (ready.length === 0) continue
    for (let i = 0; i < ready.length; i++) yield ready[i]!
    ready.length = 0
  }
  builder.finish()
  yield* ready
}

/**
 * Candles of one series at a longer interval: `5m`, `15m`, `4h`, `1w`, `1M` (calendar months)...
 * from the service's `1m`, `1h` or `1d`. The target must be a whole multiple of the source
 * interval. Buckets are aligned to UTC (weeks start on Monday 00:00 UTC) and a bucket's `close_ts`
 * is its end. open is the first open, close the last close, high the max, low the min, volumes
 * are summed; an aggregated candle's `exchanges` is the union of the bucket's; `flag` is the
 * strongest of the bucket's (`outlier_excluded`, then `outlier`, then a newer flag, then `null`).
 * Each candle says how many source candles it holds (`source_candles`), how many it can hold
 * (`source_expected`) and whether that is all (`complete`).
 *
 * Streams in O(1) memory: give it a walk (or any async iterable) and get an async iterable; give
 * it an array (or any iterable) and get an iterable. Candles must be of one series, in ascending
 * `close_ts` order (a forward walk): anything else throws a {@link ResampleError} when met.
 * A target that is not an interval throws a `RangeError` at once.
 * @example
 * import { resample } from 'market-candles'
 * const walk = client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2025-01-01' })
 * for await (const c of resample(walk, '15m')) console.log(c.close_ts, c.close, c.complete)
 * const weekly = [...resample(dailyCandles, '1w', { dropPartial: true })]
 */
export function resample<C extends ExchangeCandle | AggregatedCandle>(source: AsyncIterable<C>, target: string, options?: ResampleOptions): AsyncGenerator<ResampledCandle<C>, undefined>
export function resample<C extends ExchangeCandle | AggregatedCandle>(source: Iterable<C>, target: string, options?: ResampleOptions): Generator<ResampledCandle<C>, undefined>
export function resample<C extends ExchangeCandle | AggregatedCandle>(
  source: Iterable<C> | AsyncIterable<C>,
  target: string,
  options: ResampleOptions = {},
): Generator<ResampledCandle<C>, undefined> | AsyncGenerator<ResampledCandle<C>, undefined> {
  const builder = new BucketBuilder<C>(bucketGrid(target), builderOptions(options))
  if (source != null && typeof (source as AsyncIterable<C>)[Symbol.asyncIterator] === 'function') return resampleAsync(source as AsyncIterable<C>, builder)
  if (source != null && typeof (source as Iterable<C>)[Symbol.iterator] === 'function') return resampleSync(source as Iterable<C>, builder)
  throw new TypeError(`resample takes an iterable or async iterable of candles (an array, a walk), got ${source === null ? 'null' : typeof source}`)
}
