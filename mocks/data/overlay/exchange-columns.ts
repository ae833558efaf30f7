import { formatTimestamp } from '../../../src/contract/index.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'
import type { Timed } from '../series.js'
import type { ColumnPoints } from './series-edit.js'

/** A candle's source and flag: rows that repeat them share one. */
export interface CandleSource {
  readonly provider: string
  readonly channel: string
  readonly flag: string | null
}

/**
 * A loaded run of one exchange series as columns: 64 bytes a candle and no object per candle, so a
 * million loaded candles give the GC nothing to copy. A page makes its candles (at most 1000) when it
 * reads them; close_ts is written back from the close time, as the service writes it.
 */
export class ExchangeColumns implements ColumnPoints<ExchangeCandle> {
  constructor(
    readonly exchange: string,
    readonly interval: string,
    readonly base: string,
    readonly quote: string,
    readonly length: number,
    /** Close times, epoch ms, ascending. */
    readonly ts: Float64Array,
    readonly open: Float64Array,
    readonly high: Float64Array,
    readonly low: Float64Array,
    readonly close: Float64Array,
    readonly baseVolume: Float64Array,
    readonly quoteVolume: Float64Array,
    /** Each row's entry in `sources`. */
    readonly source: Uint32Array,
    readonly sources: readonly CandleSource[],
  ) {}

  at(i: number): Timed<ExchangeCandle> | undefined {
    if (i < 0) i += this.length
    if (!(i >= 0 && i < this.length)) return undefined
    const t = this.ts[i]!
    const s = this.sources[this.source[i]!]!
    // The fields in the API's order, as the object path stores them.
    const candle: ExchangeCandle = {
      exchange: this.exchange,
      interval: this.interval,
      base: this.base,
      quote: this.quote,
      close_ts: formatTimestamp(t),
      open: this.open[i]!,
      high: this.high[i]!,
      low: this.low[i]!,
      close: this.close[i]!,
      base_volume: this.baseVolume[i]!,
      quote_volume: this.quoteVolume[i]!,
      source_provider: s.provider,
      source_channel: s.channel,
      flag: s.flag,
    }
    return { t, candle }
  }
}
