import { nextCursor, type CandlePage, type PageCursor } from './page-cursor.js'

/** Fetches one page for a wire query. */
export type FetchPage<C> = (query: Record<string, string>, signal: AbortSignal | undefined) => Promise<C[]>

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
