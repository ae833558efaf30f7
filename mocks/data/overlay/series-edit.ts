import { lowerBound, upperBound } from '../grid.js'
import type { Series, Timed } from '../series.js'

/**
 * A stretch of close times `[from, to]` (inclusive, whole milliseconds) whose candles come from
 * `source` (a generated series) instead of the base, or from nowhere (`null`: an outage).
 */
export interface Segment<C> {
  readonly from: number
  readonly to: number
  readonly source: Series<C> | null
}

/**
 * Put candles by position: an array of them, or columns that make candle i when a page reads it
 * (a loaded run: no long-lived object per candle).
 */
export interface PointList<C> {
  readonly length: number
  at(i: number): Timed<C> | undefined
}

/** A loaded run of one series: its candles as columns, `ts` their close times (ascending, unique). */
export interface ColumnPoints<C> extends PointList<C> {
  readonly ts: ArrayLike<number>
}

/**
 * What a service arranged on one series, over the shared immutable base: candles put at close
 * times (sorted; they win over everything at their close time) and segments (sorted, disjoint).
 * Costs what the arranged candles cost, never the base's length.
 */
export interface SeriesEdit<C> {
  /** Close times of `points`, ascending (a loaded run's own column while it is the only put). */
  ts: ArrayLike<number>
  points: PointList<C>
  segments: Segment<C>[]
}

export const emptyEdit = <C>(): SeriesEdit<C> => ({ ts: [], points: [], segments: [] })

/** The edit's points as arrays it may change: a loaded run is made into candles first (a later put or removal over it). */
function ownArrays<C>(edit: SeriesEdit<C>): { ts: number[]; points: Timed<C>[] } {
  if (!Array.isArray(edit.points)) {
    const run = edit.points
    edit.points = Array.from({ length: run.length }, (_, i) => run.at(i)!)
    edit.ts = Array.from(edit.ts)
  }
  return edit as unknown as { ts: number[]; points: Timed<C>[] }
}

/** Puts a loaded run: kept as its columns when the series has no points yet, else merged as candles. */
export function putColumns<C>(edit: SeriesEdit<C>, run: ColumnPoints<C>): void {
  if (run.length === 0) return
  if (edit.ts.length > 0) return putPoints(edit, Array.from({ length: run.length }, (_, i) => run.at(i)!))
  edit.ts = run.ts
  edit.points = run
}

/** Puts sorted rows (unique close times): a merge, O(n + m); a row replaces the point at its close time. */
export function putPoints<C>(edit: SeriesEdit<C>, rows: readonly Timed<C>[]): void {
  if (rows.length === 0) return
  const { ts, points } = ownArrays(edit)
  // Rows after every stored point (the common case: building a series forwards) are appended.
  if (ts.length === 0 || rows[0]!.t > ts[ts.length - 1]!) {
    for (const row of rows) ts.push(row.t), points.push(row)
    return
  }
  const mergedTs: number[] = []
  const merged: Timed<C>[] = []
  let i = 0
  let j = 0
  while (i < ts.length || j < rows.length) {
    if (j === rows.length || (i < ts.length && ts[i]! < rows[j]!.t)) {
      mergedTs.push(ts[i]!), merged.push(points[i++]!)
    } else {
      if (i < ts.length && ts[i] === rows[j]!.t) i++
      mergedTs.push(rows[j]!.t), merged.push(rows[j++]!)
    }
  }
  edit.ts = mergedTs
  edit.points = merged
}

/** Drops the points in `[from, to]`; returns how many. */
export function dropPoints<C>(edit: SeriesEdit<C>, from: number, to: number): number {
  const lo = lowerBound(edit.ts, from)
  const hi = upperBound(edit.ts, to)
  if (lo === hi) return 0
  const { ts, points } = ownArrays(edit)
  ts.splice(lo, hi - lo)
  points.splice(lo, hi - lo)
  return hi - lo
}

/** Lays a segment over `[from, to]`: what was there (base, earlier segments, points) no longer shows. */
export function paveSegment<C>(edit: SeriesEdit<C>, from: number, to: number, source: Series<C> | null): void {
  dropPoints(edit, from, to)
  const next: Segment<C>[] = []
  for (const s of edit.segments) {
    if (s.to < from || s.from > to) {
      next.push(s)
      continue
    }
    // The parts of an older segment outside [from, to] stay.
    if (s.from < from) next.push({ from: s.from, to: from - 1, source: s.source })
    if (s.to > to) next.push({ from: to + 1, to: s.to, source: s.source })
  }
  next.push({ from, to, source })
  edit.segments = next.sort((a, b) => a.from - b.from)
}

export const isEmptyEdit = (edit: SeriesEdit<unknown>): boolean => edit.ts.length === 0 && edit.segments.length === 0
