import type { SchemaElement } from 'hyparquet'
import { parseTimestamp } from '../../../../src/contract/close-time.js'
import { DEFAULT_PART_ROWS } from '../../flags/part-rows-flag.js'
import { PRICE_COLUMNS as PRICES, type Kind } from '../columns.js'
import type { AnyCandle } from '../sink.js'

// The series' own fields (exchange or method, base, quote, interval) are the partition folders, not columns.
function schemaOf(kind: Kind): SchemaElement[] {
  const text = (name: string, repetition: 'REQUIRED' | 'OPTIONAL'): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition })
  const own: SchemaElement[] =
    kind === 'exchange'
      ? [text('source_provider', 'REQUIRED'), text('source_channel', 'REQUIRED')]
      : [
          { name: 'exchanges', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
          { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
          text('element', 'REQUIRED'),
        ]
  const fields = 1 + PRICES.length + (kind === 'exchange' ? 2 : 1) + 1
  return [
    { name: 'root', num_children: fields },
    { name: 'close_ts', type: 'INT64', repetition_type: 'REQUIRED', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } },
    ...PRICES.map((name): SchemaElement => ({ name, type: 'DOUBLE', repetition_type: 'REQUIRED' })),
    ...own,
    text('flag', 'OPTIONAL'),
  ]
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The rows of one part file as columns, filled page by page: `rows` per part (`--part-rows`), each
 * part one row group. The typed arrays take 56 bytes a row, allocated whole (5.6 MB at the default
 * 100,000), plus a reference a row per text column. Documented in docs/analysing.md.
 */
export class ParquetColumns {
  readonly schema: SchemaElement[]
  length = 0
  readonly rows: number
  private readonly kind: Kind
  private readonly closeTs: Float64Array
  private readonly prices: Float64Array[]
  private readonly texts: Array<Array<string | string[] | null>>
  private provider = ''
  private channel = ''
  private flag = ''
  private exchanges: string[] = []

  constructor(kind: Kind, rows: number = DEFAULT_PART_ROWS) {
    this.kind = kind
    this.rows = rows
    this.closeTs = new Float64Array(rows)
    this.prices = PRICES.map(() => new Float64Array(rows))
    this.schema = schemaOf(kind)
    this.texts = kind === 'exchange' ? [[], [], []] : [[], []]
  }

  get full(): boolean {
    return this.length === this.rows
  }

  /** Adds candles from `from` until the part is full; returns where it stopped. */
  add(candles: readonly AnyCandle[], from: number): number {
    let i = from
    const [open, high, low, close, baseVolume, quoteVolume] = this.prices as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array]
    for (; i < candles.length && this.length < this.rows; i++) {
      const c = candles[i]!
      const at = this.length++
      this.closeTs[at] = parseTimestamp(c.close_ts)
      open[at] = c.open
      high[at] = c.high
      low[at] = c.low
      close[at] = c.close
      baseVolume[at] = c.base_volume
      quoteVolume[at] = c.quote_volume
      if ('exchange' in c) {
        // The same text as the row before is kept as that row's string: a part then holds a few
        // strings, not one per row from each page's JSON, which would outlive their pages.
        this.texts[0]!.push(c.source_provider === this.provider ? this.provider : (this.provider = c.source_provider))
        this.texts[1]!.push(c.source_channel === this.channel ? this.channel : (this.channel = c.source_channel))
        this.texts[2]!.push(c.flag === null ? null : c.flag === this.flag ? this.flag : (this.flag = c.flag))
      } else {
        // Each candle's list is an array of its own: held a row at a time, they cost about 200 bytes
        // a row of heap, more than a part of a million rows leaves room for.
        this.texts[0]!.push(sameList(c.exchanges, this.exchanges) ? this.exchanges : (this.exchanges = c.exchanges))
        this.texts[1]!.push(c.flag === null ? null : c.flag === this.flag ? this.flag : (this.flag = c.flag))
      }
    }
    return i
  }

  /** The last close time held (epoch ms). */
  get lastCloseTs(): number {
    return this.closeTs[this.length - 1]!
  }

  /**
   * The column data for the writer, then empties the columns. close_ts is delta-encoded (a series
   * on a grid: 15 % smaller files); prices and volumes are written plain, since a dictionary of
   * them rarely pays and trying one cost about a third of the writer's time (measured, same size).
   * Only close_ts carries min/max statistics, what readers prune row groups by: those of the other
   * columns cost about 15 % of the writer's time (measured).
   */
  take(): Array<{ name: string; data: ArrayLike<unknown>; encoding?: 'PLAIN' | 'DELTA_BINARY_PACKED'; statistics?: boolean }> {
    const n = this.length
    const timestamps = new BigInt64Array(n)
    for (let i = 0; i < n; i++) timestamps[i] = BigInt(this.closeTs[i]!)
    const names = this.kind === 'exchange' ? ['source_provider', 'source_channel', 'flag'] : ['exchanges', 'flag']
    const out = [
      { name: 'close_ts', data: timestamps, encoding: 'DELTA_BINARY_PACKED' as const },
      ...PRICES.map((name, k) => ({ name, data: this.prices[k]!.slice(0, n), encoding: 'PLAIN' as const, statistics: false })),
      ...names.map((name, k) => ({ name, data: this.texts[k]!, statistics: false })),
    ]
    this.length = 0
    this.texts.forEach((_, k) => (this.texts[k] = []))
    return out
  }
}
