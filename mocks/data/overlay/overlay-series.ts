import { lowerBound, upperBound } from '../grid.js'
import type { PointList, SeriesEdit } from './series-edit.js'
import type { Countable, Series, Timed } from '../series.js'

const NOTHING: readonly never[] = []

/**
 * A series as one service sees it: `base` (the shared store's, or none for a new series) under the
 * service's `edit`, clipped to `[min, max]` (an exchange's lifetime). Reads the edit at each walk,
 * so it never copies the base; a walk that meets no arranged candle is the base's own walk.
 */
export function overlaySeries<C, S extends Series<C>>(
  identity: Omit<S, 'ascending' | 'descending'>,
  base: (Series<C> & Countable) | undefined,
  edit: SeriesEdit<C>,
  min = -Infinity,
  max = Infinity,
): S & Countable {
  function rangeAscending(from: number, to: number): Iterable<Timed<C>> {
    if (edit.segments.length === 0) return base ? base.ascending(from, to) : NOTHING
    return segmentsAscending(from, to)
  }
  function* segmentsAscending(from: number, to: number): Generator<Timed<C>> {
    let cursor = from
    for (const s of edit.segments) {
      if (s.to < cursor) continue
      if (s.from > to) break
      if (base && cursor < s.from) yield* base.ascending(cursor, Math.min(s.from - 1, to))
      if (s.source) yield* s.source.ascending(Math.max(cursor, s.from), Math.min(s.to, to))
      cursor = s.to + 1
      if (cursor > to) return
    }
    if (base) yield* base.ascending(cursor, to)
  }
  function rangeDescending(to: number, from: number): Iterable<Timed<C>> {
    if (edit.segments.length === 0) return base ? base.descending(to, from) : NOTHING
    return segmentsDescending(to, from)
  }
  function* segmentsDescending(to: number, from: number): Generator<Timed<C>> {
    let cursor = to
    const segments = edit.segments
    for (let k = segments.length - 1; k >= 0; k--) {
      const s = segments[k]!
      if (s.from > cursor) continue
      if (s.to < from) break
      if (base && cursor > s.to) yield* base.descending(cursor, Math.max(s.to + 1, from))
      if (s.source) yield* s.source.descending(Math.min(cursor, s.to), Math.max(s.from, from))
      cursor = s.from - 1
      if (cursor < from) return
    }
    if (base) yield* base.descending(cursor, from)
  }
  /** Whether the range layer (base and segments, points aside) has a candle at t; undefined: cannot say without a walk. */
  function rangeHas(t: number): boolean | undefined {
    for (const s of edit.segments) {
      if (t < s.from) break
      if (t <= s.to) return s.source ? (s.source as Series<C> & Countable).has?.(t) : false
    }
    return base ? base.has?.(t) : false
  }
  /** Whether a contributing candle closes at t: a put one, else the range layer's. */
  function contributesAt(t: number): boolean | undefined {
    if (t < min || t > max) return false
    const p = lowerBound(edit.ts, t)
    if (edit.ts[p] === t) return (edit.points.at(p)!.candle as { flag?: unknown }).flag !== 'outlier_excluded'
    for (const s of edit.segments) {
      if (t < s.from) break
      if (t <= s.to) return s.source ? (s.source as Series<C> & Countable).contributesAt?.(t) : false
    }
    return base ? base.contributesAt?.(t) : false
  }
  /** Candles of the range layer in [from, to], or undefined when a part cannot count. */
  function rangeCount(from: number, to: number): number | undefined {
    const part = (s: (Series<C> & Countable) | null | undefined, a: number, b: number) => (!s || a > b ? 0 : s.count?.(a, b))
    let n = 0
    let cursor = from
    for (const s of edit.segments) {
      if (s.to < cursor) continue
      if (s.from > to) break
      const before = cursor < s.from ? part(base, cursor, Math.min(s.from - 1, to)) : 0
      const inside = part(s.source as (Series<C> & Countable) | null, Math.max(cursor, s.from), Math.min(s.to, to))
      if (before === undefined || inside === undefined) return undefined
      n += before + inside
      cursor = s.to + 1
      if (cursor > to) return n
    }
    const after = part(base, cursor, to)
    return after === undefined ? undefined : n + after
  }
  return {
    ...identity,
    count(from: number, to: number): number | undefined {
      from = Math.max(from, min)
      to = Math.min(to, max)
      if (from > to) return 0
      let n = rangeCount(from, to)
      if (n === undefined) return undefined
      // A point counts once: where the range has a candle at its close time, the point replaces it.
      for (let p = lowerBound(edit.ts, from), end = upperBound(edit.ts, to); p < end; p++) {
        const shadowed = rangeHas(edit.ts[p]!)
        if (shadowed === undefined) return undefined
        if (!shadowed) n++
      }
      return n
    },
    contributesAt,
    has(t: number): boolean | undefined {
      if (t < min || t > max) return false
      const p = lowerBound(edit.ts, t)
      return edit.ts[p] === t ? true : rangeHas(t)
    },
    ascending(from, to) {
      from = Math.max(from, min)
      to = Math.min(to, max)
      const lo = lowerBound(edit.ts, from)
      const hi = upperBound(edit.ts, to)
      return lo < hi ? mergeAscending(rangeAscending, edit.ts, edit.points, lo, hi, from, to) : rangeAscending(from, to)
    },
    descending(to, from) {
      from = Math.max(from, min)
      to = Math.min(to, max)
      const lo = lowerBound(edit.ts, from)
      const hi = upperBound(edit.ts, to)
      return lo < hi ? mergeDescending(rangeDescending, edit.ts, edit.points, lo, hi, to, from) : rangeDescending(to, from)
    },
  } as S & Countable
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true }

/*
 * A put candle wins over the range's candle at its close time. The walk is the range's own walk in
 * pieces between the points, each point in its place: an iterator that hands on the pieces' results
 * as they are, so a candle costs one call more than the base's walk, not a generator's resume.
 * Close times are whole milliseconds, so the piece before a point at t ends at t - 1.
 */
function mergeAscending<C>(range: (from: number, to: number) => Iterable<Timed<C>>, ts: ArrayLike<number>, points: PointList<C>, p: number, end: number, from: number, to: number): Iterable<Timed<C>> {
  return {
    [Symbol.iterator]() {
      let cursor = from
      let q = p
      let piece: Iterator<Timed<C>> | undefined
      let finished = false
      return {
        next(): IteratorResult<Timed<C>> {
          for (;;) {
            if (finished) return DONE
            if (!piece) piece = range(cursor, q < end ? ts[q]! - 1 : to)[Symbol.iterator]()
            const r = piece.next()
            if (!r.done) return r
            piece = undefined
            if (q === end) {
              finished = true
              return DONE
            }
            cursor = ts[q]! + 1
            return { value: points.at(q++)!, done: false }
          }
        },
        return(): IteratorResult<Timed<C>> {
          piece?.return?.()
          finished = true
          return DONE
        },
      }
    },
  }
}

function mergeDescending<C>(range: (to: number, from: number) => Iterable<Timed<C>>, ts: ArrayLike<number>, points: PointList<C>, lo: number, end: number, to: number, from: number): Iterable<Timed<C>> {
  return {
    [Symbol.iterator]() {
      let cursor = to
      let q = end - 1
      let piece: Iterator<Timed<C>> | undefined
      let finished = false
      return {
        next(): IteratorResult<Timed<C>> {
          for (;;) {
            if (finished) return DONE
            if (!piece) piece = range(cursor, q >= lo ? ts[q]! + 1 : from)[Symbol.iterator]()
            const r = piece.next()
            if (!r.done) return r
            piece = undefined
            if (q < lo) {
              finished = true
              return DONE
            }
            cursor = ts[q]! - 1
            return { value: points.at(q--)!, done: false }
          }
        },
        return(): IteratorResult<Timed<C>> {
          piece?.return?.()
          finished = true
          return DONE
        },
      }
    },
  }
}
