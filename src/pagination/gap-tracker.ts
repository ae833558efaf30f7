import { formatTimestamp, parseTimestamp } from '../contract/close-time.js'
import { closeTimesChecked } from '../internal/checked-close-times.js'

// How many of the time's fields (seconds; minutes; hours) are zero in a close time on the grid of
// each step (`YYYY-MM-DDTHH:MM:SSZ`): a minute, an hour, a day.
const ZERO_FIELDS: Readonly<Record<number, number>> = { 60_000: 1, 3_600_000: 2, 86_400_000: 3 }

/** A run of missing candles: the close times from `from` to `to` (both included) have no candle. */
export interface CandleGap {
  /** The first missing close time. */
  from: string
  /** The last missing close time. */
  to: string
  /** How many candles are missing: the close times from `from` to `to` at the walk's interval. */
  missing: number
}

/**
 * What a forward walk's range should hold at its interval against what the service returned.
 * @example
 * const walk = client.exchangeOhlcvCandles({ ...pair, interval: '1m', start: '2025-01-01', end: '2025-02-01' })
 * for await (const c of walk) store(c)
 * const { expected, received, gaps } = walk.gaps()
 * console.log(`${received} of ${expected}; largest gap: ${gaps.toSorted((a, b) => b.missing - a.missing)[0]?.from}`)
 */
export interface GapReport {
  interval: string
  /** The first close time the range holds (`start` rounded up to the interval); null when unknown. */
  from: string | null
  /**
   * The last close time checked: the range's `end` (rounded down) once the walk is complete, else
   * the last candle yielded (a walk without `end` cannot know what is missing after its last candle).
   */
  to: string | null
  /** Close times from `from` to `to` at the interval. */
  expected: number
  /** Candles yielded in that range. */
  received: number
  /** `expected - received`: the sum of the gaps' `missing`. */
  missing: number
  /** The missing close times as ranges, ascending. */
  gaps: CandleGap[]
  /** True when the walk has reached its end; false when it was left early or is still going. */
  complete: boolean
}

/**
 * Follows the close times of an ascending series on a fixed grid and keeps its gaps as ranges:
 * O(gaps) memory, never the candles.
 */
export class GapTracker {
  readonly interval: string
  private readonly step: number
  private readonly first: number
  private readonly last: number | undefined
  private next: number
  private seen = -Infinity
  private received = 0
  private readonly gaps: CandleGap[] = []

  /** `start`, `end`: the range's bounds (epoch ms; `end` undefined when open). */
  constructor(interval: string, step: number, start: number, end: number | undefined) {
    this.interval = interval
    this.step = step
    this.first = Math.ceil(start / step) * step
    this.last = end === undefined ? undefined : Math.floor(end / step) * step
    this.next = this.first
  }

  /** One candle's close time, in ascending order (text as the service writes it, or epoch ms). */
  observe(closeTs: string | number): void {
    const t = typeof closeTs === 'number' ? closeTs : parseTimestamp(closeTs)
    if (!(t >= this.next)) return // before the range, or not on the grid's order: not a gap
    if (this.last !== undefined && t > this.last) return // after the range
    if (t > this.next) this.addGap(this.next, t - this.step)
    this.received++
    this.seen = t
    this.next = t + this.step
  }

  /**
   * A page's candles, ascending, as `observe` would see them one by one. A page the client
   * validated (its close times checked against the datetime pattern) that continues the series
   * with no gap is counted from its two ends: each close time is only checked to be on the grid
   * and after the one before it, not parsed.
   */
  observeAll(candles: readonly { close_ts: string }[]): void {
    const n = candles.length
    if (n > 0 && closeTimesChecked(candles) && this.withoutGap(candles)) {
      this.received += n
      this.seen = this.next + (n - 1) * this.step
      this.next = this.seen + this.step
      return
    }
    for (let i = 0; i < n; i++) this.observe(candles[i]!.close_ts)
  }

  // True when the close times are next, next + step, ..., all inside the range: n distinct times on
  // the grid (checked text ascending, which is time order for checked close times of this length)
  // from `next` to `next + (n - 1) step` can only be those.
  private withoutGap(candles: readonly { close_ts: string }[]): boolean {
    const zeros = ZERO_FIELDS[this.step]
    const n = candles.length
    if (zeros === undefined) return false
    const end = this.next + (n - 1) * this.step
    if (parseTimestamp(candles[0]!.close_ts) !== this.next || parseTimestamp(candles[n - 1]!.close_ts) !== end) return false
    if (this.last !== undefined && end > this.last) return false
    let before = ''
    for (let i = 0; i < n; i++) {
      const ts = candles[i]!.close_ts
      if (ts.length !== 20 || !(ts > before)) return false
      if (ts.charCodeAt(17) !== 48 || ts.charCodeAt(18) !== 48) return false
      if (zeros > 1 && (ts.charCodeAt(14) !== 48 || ts.charCodeAt(15) !== 48 || (zeros > 2 && (ts.charCodeAt(11) !== 48 || ts.charCodeAt(12) !== 48)))) return false
      before = ts
    }
    return true
  }

  private addGap(from: number, to: number): void {
    const missing = Math.floor((to - from) / this.step) + 1
    if (missing > 0) this.gaps.push({ from: formatTimestamp(from), to: formatTimestamp(to), missing })
  }

  /** The report so far; `complete` when the source has ended (then a missing tail counts too). */
  report(complete: boolean): GapReport {
    const gaps = this.gaps.slice()
    let to = this.seen
    if (complete && this.last !== undefined) {
      to = this.last
      if (this.next <= this.last) gaps.push({ from: formatTimestamp(this.next), to: formatTimestamp(this.last), missing: Math.floor((this.last - this.next) / this.step) + 1 })
    }
    const expected = to >= this.first ? Math.floor((to - this.first) / this.step) + 1 : 0
    return {
      interval: this.interval,
      from: formatTimestamp(this.first),
      to: to === -Infinity ? null : formatTimestamp(to),
      expected,
      received: this.received,
      missing: expected - this.received,
      gaps,
      complete,
    }
  }
}
