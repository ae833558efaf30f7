import { PaginationError } from '../errors/index.js'
import type { CandlePage, PageCursor } from './page-cursor.js'

/** Fetches one page for a wire query. */
export type FetchPage<C> = (query: Record<string, string>, signal: AbortSignal | undefined) => Promise<C[]>

const timeOf = (candle: { close_ts: string }): number => Date.parse(candle.close_ts)

// `YYYY-MM-DDTHH:MM:SSZ`, the service's only format (D5): fixed width, so text order is time order.
const canonical = (ts: string): boolean => ts.length === 20 && ts.charCodeAt(10) === 84 && ts.charCodeAt(19) === 90

/** Strictly ascending close_ts; compares text when both are canonical, instants otherwise. */
function ascending(a: string, b: string): boolean {
  return canonical(a) && canonical(b) ? a < b : Date.parse(a) < Date.parse(b)
}

/**
 * Checks a page against the paging rules and tells where the walk goes next: forward, the next
 * `start` is the last `close_ts` + 1 ms (D11) until a short page or `end`; backward, the next `end`
 * is the earliest `close_ts` - 1 ms until a short page. A page that breaks the rules ends the walk
 * with a {@link PaginationError}, never a loop or a duplicate.
 */
export function nextCursor<C extends { close_ts: string }>(cursor: PageCursor, candles: readonly C[]): PageCursor | null {
  const { query, direction } = cursor
  const limit = Number(query.limit)
  const start = query.start === undefined ? -Infinity : Date.parse(query.start)
  const end = query.end === undefined ? Infinity : Date.parse(query.end)
  for (let i = 1; i < candles.length; i++) {
    if (!ascending(candles[i - 1]!.close_ts, candles[i]!.close_ts)) {
      throw new PaginationError(`Page is not strictly ascending by close_ts at ${candles[i]!.close_ts} (${JSON.stringify(query)})`)
    }
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
    return { ...cursor, query: { ...query, start: new Date(next).toISOString() } }
  }
  return { ...cursor, query: { ...query, end: new Date(timeOf(candles[0]!) - 1).toISOString() } }
}

/** The cursor right after one candle: where a walk stopped mid-page goes on. */
export function cursorAfter(cursor: PageCursor, candle: { close_ts: string }): PageCursor {
  const t = timeOf(candle)
  return cursor.direction === 'forward'
    ? { ...cursor, query: { ...cursor.query, start: new Date(t + 1).toISOString() } }
    : { ...cursor, query: { ...cursor.query, end: new Date(t - 1).toISOString() } }
}

/** Pages one after another from `cursor` until the walk ends. */
export async function* sequentialPages<C extends { close_ts: string }>(
  fetchPage: FetchPage<C>,
  cursor: PageCursor,
  signal: AbortSignal | undefined,
): AsyncGenerator<CandlePage<C>> {
  for (let current: PageCursor | null = cursor; current !== null; ) {
    const candles = await fetchPage(current.query, signal)
    const query = current.query
    current = nextCursor(current, candles)
    yield { candles, query, cursor: current }
  }
}
