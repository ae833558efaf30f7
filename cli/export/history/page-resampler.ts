import { BucketBuilder } from '../../../src/analysis/bucket-builder.js'
import { bucketGrid } from '../../../src/analysis/bucket-grid.js'
import type { ResampledCandle } from '../../../src/analysis/resampled-candle.js'
import type { AnyCandle } from '../sinks/index.js'
import { parseTimestamp } from '../../../src/contract/close-time.js'

// A stored candle has the resource's columns only: how full its bucket was is in the coverage report.
function plain(c: ResampledCandle<AnyCandle>): AnyCandle {
  const { source_candles: _n, source_expected: _e, complete: _c, final: _f, ...candle } = c
  return candle as AnyCandle
}

/** `--resample`: turns a series' pages into resampled candles, a bucket as soon as it is final. */
export class PageResampler {
  private readonly builder: BucketBuilder<AnyCandle>
  private readonly from: number
  private readonly step: number

  /** `from`: the range's first close time (epoch ms); `step`: the source interval (ms). */
  constructor(target: string, from: number, step: number) {
    this.builder = new BucketBuilder(bucketGrid(target), { dropPartial: false, forming: false })
    this.from = from
    this.step = step
  }

  /** The buckets a page completes. */
  page(candles: readonly AnyCandle[]): AnyCandle[] {
    for (const c of candles) this.builder.push(c)
    return this.take()
  }

  /** The series is done up to `last` (epoch ms): the open bucket too, when it ends by then. */
  end(last: number): AnyCandle[] {
    const open = this.builder.openEnd
    if (open !== undefined && open <= last) this.builder.finish()
    return this.take()
  }

  // A bucket is stored when the range covers it whole: one that starts before `from` (a --start
  // inside it) is left out, as one that ends after the range is (see `end`).
  private take(): AnyCandle[] {
    const out: AnyCandle[] = []
    for (const c of this.builder.ready) {
      const firstClose = parseTimestamp(c.close_ts) - (c.source_expected - 1) * this.step
      if (firstClose >= this.from) out.push(plain(c))
    }
    this.builder.ready.length = 0
    return out
  }
}
