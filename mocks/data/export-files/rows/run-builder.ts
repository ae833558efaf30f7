import { ExchangeColumns, type CandleSource } from '../../overlay/exchange-columns.js'

/**
 * The columns of one exchange series as it is read: sized from an estimate (its first and last
 * close time on its grid, exact for a series without gaps), doubled when rows outrun it, trimmed
 * at the end when much of it is spare. A count(*) of the series would cost a tenth of the read.
 */
export class RunBuilder {
  length = 0
  private ts: Float64Array
  private open: Float64Array
  private high: Float64Array
  private low: Float64Array
  private close: Float64Array
  private baseVolume: Float64Array
  private quoteVolume: Float64Array
  private source: Uint32Array

  constructor(capacity: number) {
    this.ts = new Float64Array(capacity)
    this.open = new Float64Array(capacity)
    this.high = new Float64Array(capacity)
    this.low = new Float64Array(capacity)
    this.close = new Float64Array(capacity)
    this.baseVolume = new Float64Array(capacity)
    this.quoteVolume = new Float64Array(capacity)
    this.source = new Uint32Array(capacity)
  }

  push(t: number, open: number, high: number, low: number, close: number, baseVolume: number, quoteVolume: number, source: number): void {
    const i = this.length
    if (i === this.ts.length) this.resize(Math.max(1024, i * 2))
    this.ts[i] = t
    this.open[i] = open
    this.high[i] = high
    this.low[i] = low
    this.close[i] = close
    this.baseVolume[i] = baseVolume
    this.quoteVolume[i] = quoteVolume
    this.source[i] = source
    this.length = i + 1
  }

  finish(exchange: string, interval: string, base: string, quote: string, sources: readonly CandleSource[]): ExchangeColumns {
    const n = this.length
    // A few slots spare (a gap or two in the series) are kept as views: no copy of the columns.
    if (n * 1.125 < this.ts.length) this.resize(n)
    const view = (a: Float64Array) => (a.length === n ? a : a.subarray(0, n))
    return new ExchangeColumns(exchange, interval, base, quote, n, view(this.ts), view(this.open), view(this.high), view(this.low), view(this.close), view(this.baseVolume), view(this.quoteVolume), this.source.length === n ? this.source : this.source.subarray(0, n), sources)
  }

  private resize(capacity: number): void {
    const n = this.length
    const grow = (a: Float64Array) => {
      const b = new Float64Array(capacity)
      b.set(a.subarray(0, n))
      return b
    }
    ;[this.ts, this.open, this.high, this.low, this.close, this.baseVolume, this.quoteVolume] = [this.ts, this.open, this.high, this.low, this.close, this.baseVolume, this.quoteVolume].map(grow) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array]
    const source = new Uint32Array(capacity)
    source.set(this.source.subarray(0, n))
    this.source = source
  }
}
