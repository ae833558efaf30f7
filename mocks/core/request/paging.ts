import type { Series } from '../../data/series.js'

/** The window of one candle request, in epoch ms. */
export interface PageWindow {
  start?: number | undefined
  end?: number | undefined
  limit: number
  /** Newest close_ts that exists yet ("latest available", contract: time). */
  now: number
  /** Oldest close_ts the plan lets this request reach (contract: plans); `-Infinity` when unlimited. */
  horizon: number
}

/**
 * The paging rules of both candle endpoints. With `start`: the first `limit` candles with
 * `close_ts >= start` (and `<= end`), even when the window holds more. Without `start`: the most
 * recent `limit` up to `end`, never past the plan's horizon; either way returned ascending.
 */
export function takePage<C>(series: Series<C>, w: PageWindow): C[] {
  const upper = Math.min(w.end ?? Infinity, w.now)
  const page: C[] = []
  if (w.limit <= 0) return page
  if (w.start !== undefined) {
    for (const { candle } of series.ascending(w.start, upper)) {
      page.push(candle)
      if (page.length === w.limit) break
    }
    return page
  }
  for (const { candle } of series.descending(upper, w.horizon)) {
    page.push(candle)
    if (page.length === w.limit) break
  }
  return page.reverse()
}
