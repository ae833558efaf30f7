import type { KnownInterval } from '../../../src/schemas/index.js'
import { INTERVAL_MS } from '../../../src/schemas/index.js'
import { ceilTo, floorTo, lowerBound } from '../grid.js'
import type { Countable, ExchangeSeries, Timed } from '../series.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'
import type { CandleFunction } from './candle-model.js'

/** An outage: no candle has its `close_ts` in `[from, to)`. */
export interface Gap {
  readonly from: number
  readonly to: number
}

/** Everything a procedural series needs: its bounds, its outages and a pure candle function. */
export interface ProceduralSeriesSpec {
  readonly exchange: string
  readonly base: string
  readonly quote: string
  readonly interval: KnownInterval
  /** Earliest possible `close_ts`. */
  readonly firstClose: number
  /** Latest possible `close_ts` (`Infinity` while the exchange is open). */
  readonly lastClose: number
  /** Sorted, non-overlapping. */
  readonly gaps: readonly Gap[]
  readonly candleAt: CandleFunction
}

/**
 * A series whose candles exist on the interval grid between two bounds, outside outages. A walk
 * costs O(limit + log(gaps)): one binary search into the outages, then a step per candle.
 */
export function proceduralSeries(spec: ProceduralSeriesSpec): ExchangeSeries & Countable {
  const step = INTERVAL_MS[spec.interval]
  const { gaps, candleAt } = spec
  const gapEnds = gaps.map((g) => g.to)
  const gapStarts = gaps.map((g) => g.from)
  const has = (t: number): boolean => {
    if (t < spec.firstClose || t > spec.lastClose || t % step !== 0) return false
    const g = lowerBound(gapEnds, t + 1) // first outage ending after t
    return !(g < gaps.length && gaps[g]!.from <= t)
  }
  /** Grid points in [lo, hi], both on the grid. */
  const points = (lo: number, hi: number) => (hi < lo ? 0 : (hi - lo) / step + 1)
  return {
    exchange: spec.exchange,
    base: spec.base,
    quote: spec.quote,
    interval: spec.interval,
    // Arithmetic over the grid less the outages: O(gaps), whatever the range.
    count(from: number, to: number): number {
      const lo = Math.max(ceilTo(Math.max(from, spec.firstClose), step), spec.firstClose)
      const hi = floorTo(Math.min(to, spec.lastClose), step)
      let n = points(lo, hi)
      for (const gap of gaps) {
        if (gap.to <= lo || gap.from > hi) continue
        n -= points(ceilTo(Math.max(gap.from, lo), step), Math.min(hi, ceilTo(gap.to, step) - step))
      }
      return n
    },
    has,
    contributesAt: (t: number): boolean => has(t) && (candleAt.flagAt ? candleAt.flagAt(t) : candleAt(t).flag) !== 'outlier_excluded',
    *ascending(from: number, to: number): Generator<Timed<ExchangeCandle>> {
      let t = Math.max(ceilTo(Math.max(from, spec.firstClose), step), spec.firstClose)
      const end = Math.min(to, spec.lastClose)
      let g = lowerBound(gapEnds, t + 1) // first outage ending after t
      while (t <= end) {
        while (g < gaps.length && gaps[g]!.to <= t) g++
        const gap = gaps[g]
        if (gap !== undefined && t >= gap.from) {
          t = ceilTo(gap.to, step)
          continue
        }
        yield { t, candle: candleAt(t) }
        t += step
      }
    },
    *descending(to: number, from: number): Generator<Timed<ExchangeCandle>> {
      let t = floorTo(Math.min(to, spec.lastClose), step)
      const start = Math.max(from, spec.firstClose)
      let g = lowerBound(gapStarts, t + 1) - 1 // last outage starting at or before t
      while (t >= start) {
        while (g >= 0 && gaps[g]!.from > t) g--
        const gap = gaps[g]
        if (gap !== undefined && t < gap.to) {
          t = ceilTo(gap.from, step) - step
          continue
        }
        yield { t, candle: candleAt(t) }
        t -= step
      }
    },
  }
}

/** Sorts outages and merges overlapping ones, as the walks require. */
export function normalizeGaps(gaps: readonly Gap[]): Gap[] {
  const sorted = [...gaps].sort((a, b) => a.from - b.from)
  const out: Gap[] = []
  for (const gap of sorted) {
    const last = out[out.length - 1]
    if (last && gap.from <= last.to) out[out.length - 1] = { from: last.from, to: Math.max(last.to, gap.to) }
    else out.push(gap)
  }
  return out
}
