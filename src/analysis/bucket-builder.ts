import { formatTimestamp, parseTimestamp } from '../contract/close-time.js'
import type { AggregatedCandle, AnyCandle, ExchangeCandle, Flag } from '../schemas/index.js'
import { INTERVAL_MS, isKnownInterval } from '../schemas/values/known-values.js'
import type { BucketGrid } from './bucket-grid.js'
import { ResampleError } from './resample-error.js'
import type { ResampledCandle } from './resampled-candle.js'


// The bucket keeps its strongest flag: outlier_excluded, then outlier, then a flag newer than this
// package, then null. Ties keep the earliest.
function flagRank(flag: Flag): number {
  return flag === null ? 0 : flag === 'outlier_excluded' ? 3 : flag === 'outlier' ? 2 : 1
}

/** Accepts the options of the bucket builder; what resample passes through. */
export interface BuilderOptions {
  dropPartial: boolean
  forming: boolean
}

/**
 * Folds ascending candles of one series into buckets, in O(1) memory: after each `push`, `ready`
 * holds what is due (a closed bucket, a full one, the forming one); the caller takes and clears it.
 */
export class BucketBuilder<C extends AnyCandle> {
  readonly ready: Array<ResampledCandle<C>> = []
  private readonly grid: BucketGrid
  private readonly options: BuilderOptions
  // The series, from its first candle.
  private seriesHead: C | undefined
  private aggregated = false
  private sourceMs = 0
  private last = -Infinity
  // The open bucket; `count === 0` when there is none.
  private head!: C
  private end = -Infinity
  private expected = 0
  private count = 0
  private open = 0
  private high = 0
  private low = 0
  private close = 0
  private baseVolume = 0
  private quoteVolume = 0
  private flag: Flag = null
  private rank = 0
  private exchanges: Set<string> | undefined

  constructor(grid: BucketGrid, options: BuilderOptions) {
    this.grid = grid
    this.options = options
  }

  push(c: C): void {
    if (typeof c?.close_ts !== 'string') throw new ResampleError(`resample takes candles (objects with a close_ts), got ${c === null ? 'null' : typeof c}`)
    const t = parseTimestamp(c.close_ts)
    if (this.seriesHead === undefined) this.learnSeries(c)
    else if (this.aggregated ? (c as AggregatedCandle).method !== (this.seriesHead as AggregatedCandle).method : (c as ExchangeCandle).exchange !== (this.seriesHead as ExchangeCandle).exchange) this.mixed(c)
    else if (c.base !== this.seriesHead.base || c.quote !== this.seriesHead.quote || c.interval !== this.seriesHead.interval) this.mixed(c)
    if (!(t > this.last)) this.outOfOrder(c, t)
    if (t % this.sourceMs !== 0) throw new ResampleError(`candle ${c.close_ts} is not on the ${c.interval} grid: its close time is not a whole number of ${c.interval} since 1970-01-01T00:00Z`)
    this.last = t
    if (t > this.end) {
      if (this.count > 0) this.closeBucket()
      this.openBucket(c, t)
    } else {
      this.count++
      if (c.high > this.high) this.high = c.high
      if (c.low < this.low) this.low = c.low
      this.close = c.close
      this.baseVolume += c.base_volume
      this.quoteVolume += c.quote_volume
      if (c.flag !== null) this.addFlag(c.flag)
      if (this.exchanges !== undefined) for (const e of (c as AggregatedCandle).exchanges) this.exchanges.add(e)
    }
    if (this.count === this.expected) this.closeBucket()
    else if (this.options.forming) this.ready.push(this.snapshot(false))
  }

  /** The close time (epoch ms) of the bucket being formed; undefined when none is. */
  get openEnd(): number | undefined {
    return this.count > 0 ? this.end : undefined
  }

  /** The end of the source: the open bucket, partial, is final now. */
  finish(): void {
    if (this.count > 0) this.closeBucket()
  }

  private learnSeries(c: C): void {
    this.seriesHead = c
    this.aggregated = 'method' in c
    if (!isKnownInterval(c.interval)) {
      throw new ResampleError(`cannot resample ${c.interval} candles: resample knows the intervals 1m, 1h and 1d, and '${c.interval}' is newer than this package`)
    }
    this.sourceMs = INTERVAL_MS[c.interval]
    if (!this.grid.divides(this.sourceMs)) {
      throw new ResampleError(`cannot resample ${c.interval} candles to ${this.grid.target}: ${this.grid.target} is not a whole multiple of ${c.interval}`)
    }
  }

  private openBucket(c: C, t: number): void {
    const { start, end } = this.grid.bucketOf(t)
    this.head = c
    this.end = end
    this.expected = (end - start) / this.sourceMs
    this.count = 1
    this.open = c.open
    this.high = c.high
    this.low = c.low
    this.close = c.close
    this.baseVolume = c.base_volume
    this.quoteVolume = c.quote_volume
    this.flag = c.flag
    this.rank = flagRank(c.flag)
    this.exchanges = this.aggregated ? new Set((c as AggregatedCandle).exchanges) : undefined
  }

  private addFlag(flag: Flag): void {
    const rank = flagRank(flag)
    if (rank > this.rank) {
      this.flag = flag
      this.rank = rank
    }
  }

  private closeBucket(): void {
    const partial = this.count < this.expected
    if (!(partial && this.options.dropPartial)) this.ready.push(this.snapshot(true))
    this.count = 0
  }

  private snapshot(final: boolean): ResampledCandle<C> {
    const out = {
      ...this.head,
      interval: this.grid.target,
      close_ts: formatTimestamp(this.end),
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      base_volume: this.baseVolume,
      quote_volume: this.quoteVolume,
      flag: this.flag,
      source_candles: this.count,
      source_expected: this.expected,
      complete: this.count === this.expected,
      final,
    }
    if (this.exchanges !== undefined) (out as unknown as AggregatedCandle).exchanges = [...this.exchanges].sort()
    return out
  }

  private mixed(c: C): never {
    const name = (x: AnyCandle) => `${'method' in x ? `aggregated ${x.method}` : x.exchange} ${x.base}/${x.quote} ${x.interval}`
    throw new ResampleError(`candles of mixed series: ${c.close_ts} is ${name(c)}, the first candle was ${name(this.seriesHead!)}; resample one series at a time`)
  }

  private outOfOrder(c: C, t: number): never {
    if (Number.isNaN(t)) throw new ResampleError(`candle close_ts '${c.close_ts}' is not a datetime`)
    const previous = formatTimestamp(this.last)
    throw new ResampleError(
      t === this.last
        ? `candle ${c.close_ts} comes twice: resample needs each close time once`
        : `candles out of order: ${c.close_ts} after ${previous}; resample needs ascending close_ts (a forward walk, with start)`,
    )
  }
}
