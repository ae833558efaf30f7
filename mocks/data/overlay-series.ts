import { lowerBound, upperBound } from './grid.js'
import type { SeriesEdit } from './series-edit.js'
import type { Series, Timed } from './series.js'

const NOTHING: readonly never[] = []

/**
 * A series as one service sees it: `base` (the shared store's, or none for a new series) under the
 * service's `edit`, clipped to `[min, max]` (an exchange's lifetime). Reads the edit at each walk,
 * so it never copies the base; a walk that meets no arranged candle is the base's own walk.
 */
export function overlaySeries<C, S extends Series<C>>(
  identity: Omit<S, 'ascending' | 'descending'>,
  base: Series<C> | undefined,
  edit: SeriesEdit<C>,
  min = -Infinity,
  max = Infinity,
): S {
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
  return {
    ...identity,
    ascending(from, to) {
      from = Math.max(from, min)
      to = Math.min(to, max)
      const range = rangeAscending(from, to)
      const lo = lowerBound(edit.ts, from)
      const hi = upperBound(edit.ts, to)
      return lo < hi ? mergeAscending(range, edit.ts, edit.points, lo, hi) : range
    },
    descending(to, from) {
      from = Math.max(from, min)
      to = Math.min(to, max)
      const range = rangeDescending(to, from)
      const lo = lowerBound(edit.ts, from)
      const hi = upperBound(edit.ts, to)
      return lo < hi ? mergeDescending(range, edit.ts, edit.points, lo, hi) : range
    },
  } as S
}

// A put candle wins over the range's candle at its close time.
function* mergeAscending<C>(range: Iterable<Timed<C>>, ts: readonly number[], points: readonly Timed<C>[], p: number, end: number): Generator<Timed<C>> {
  for (const r of range) {
    while (p < end && ts[p]! < r.t) yield points[p++]!
    if (p < end && ts[p] === r.t) {
      yield points[p++]!
      continue
    }
    yield r
  }
  while (p < end) yield points[p++]!
}

function* mergeDescending<C>(range: Iterable<Timed<C>>, ts: readonly number[], points: readonly Timed<C>[], lo: number, end: number): Generator<Timed<C>> {
  let p = end - 1
  for (const r of range) {
    while (p >= lo && ts[p]! > r.t) yield points[p--]!
    if (p >= lo && ts[p] === r.t) {
      yield points[p--]!
      continue
    }
    yield r
  }
  while (p >= lo) yield points[p--]!
}
