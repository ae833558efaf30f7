import { PaginationError } from '../errors/index.js'
import { dateTimeMs } from '../contract/parse-datetime.js'
import { parseTimestamp } from '../contract/close-time.js'
import type { PageCursor } from './page-cursor-schema.js'

export type { PageCursor } from './page-cursor-schema.js'

/** One page of a walk. */
export interface CandlePage<C> {
  /** The candles as the service returned them: ascending by `close_ts`. */
  candles: C[]
  /** The wire query this page was fetched with. */
  query: Record<string, string>
  /** Where the walk goes on after this page; `null` when this was the last page. */
  cursor: PageCursor | null
}

/**
 * The cursor with one bound of its query set to an instant (epoch ms), or removed with `undefined`.
 * Cursor values carry milliseconds: "just after" a `close_ts` is that instant plus one millisecond
 * (contract: paging).
 */
export function withAnchor(cursor: PageCursor, bound: 'start' | 'end', ms: number | undefined): PageCursor {
  const query = { ...cursor.query }
  if (ms === undefined) delete query[bound]
  // ISO 8601 with milliseconds: the service's own output format (whole seconds) cannot say "+1 ms".
  else query[bound] = new Date(ms).toISOString()
  return { ...cursor, query }
}

const timeOf = (candle: { close_ts: string }): number => parseTimestamp(candle.close_ts)

// `YYYY-MM-DDTHH:MM:SSZ`, the canonical form of whole seconds the client hands on: fixed width, so text order is time order.
const canonical = (ts: string): boolean => ts.length === 20 && ts.charCodeAt(10) === 84 && ts.charCodeAt(19) === 90


/**
 * Checks a page against the paging rules and tells where the walk goes next: forward, the next
 * `start` is the last `close_ts` + 1 ms (contract: paging) until a short page or `end`; backward, the next `end`
 * is the earliest `close_ts` - 1 ms until a short page. A page that breaks the rules ends the walk
 * with a {@link PaginationError}, never a loop or a duplicate.
 */
export function nextCursor<C extends { close_ts: string }>(cursor: PageCursor, candles: readonly C[]): PageCursor | null {
  const { query, direction } = cursor
  const limit = Number(query.limit)
  const start = query.start === undefined ? -Infinity : dateTimeMs(query.start)
  const end = query.end === undefined ? Infinity : dateTimeMs(query.end)
  // Strictly ascending close_ts: text compared when both are canonical, instants otherwise. The form
  // of a close time found for one pair is kept for the next (evaluated in the same order as before).
  let before = candles.length > 0 ? candles[0]!.close_ts : ''
  let beforeCanonical: boolean | undefined
  for (let i = 1; i < candles.length; i++) {
    const ts = candles[i]!.close_ts
    let isCanonical: boolean | undefined
    if ((beforeCanonical ??= canonical(before)) && (isCanonical = canonical(ts)) ? !(before < ts) : !(parseTimestamp(before) < parseTimestamp(ts))) {
      throw new PaginationError(`Page is not strictly ascending by close_ts at ${ts} (${JSON.stringify(query)})`)
    }
    before = ts
    beforeCanonical = isCanonical
  }
  // Ascending, so the page lies inside the window when its two ends do.
  for (const edge of candles.length === 0 ? [] : [candles[0]!, candles.at(-1)!]) {
    const t = timeOf(edge)
    if (!(t >= start && t <= end)) throw new PaginationError(`Page holds ${edge.close_ts}, outside the requested window (${JSON.stringify(query)})`)
  }
  if (candles.length > limit) throw new PaginationError(`Page holds ${candles.length} candles, more than limit ${limit}`)
  if (candles.length < limit) return null
  if (direction === 'forward') {
    const next = timeOf(candles.at(-1)!) + 1
    if (next > end) return null
    return withAnchor(cursor, 'start', next)
  }
  return withAnchor(cursor, 'end', timeOf(candles[0]!) - 1)
}

/** The cursor right after one candle: where a walk stopped mid-page goes on. */
export function cursorAfter(cursor: PageCursor, candle: { close_ts: string }): PageCursor {
  const t = timeOf(candle)
  return cursor.direction === 'forward' ? withAnchor(cursor, 'start', t + 1) : withAnchor(cursor, 'end', t - 1)
}

