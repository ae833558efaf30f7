import * as z from 'zod/mini'

/**
 * Where a walk goes on: a plain-JSON value, safe to store and to send across processes. Its `query`
 * is the wire query of the next request, anchor included (`start` going forward, `end` going
 * backward), so a walk restarted from it continues with no gap and no duplicate.
 */
export const pageCursorSchema = z.object({
  version: z.literal(1),
  endpoint: z.enum(['exchange_ohlcv', 'aggregated_ohlcv']),
  /** `forward` walks from `start` up; `backward` walks from `end` (or the latest) down. */
  direction: z.enum(['forward', 'backward']),
  query: z.record(z.string(), z.string()),
})
/** Where a walk goes on. */
export type PageCursor = z.infer<typeof pageCursorSchema>

/** One page of a walk. */
export interface CandlePage<C> {
  /** The candles as the service returned them: ascending by `close_ts`. */
  candles: C[]
  /** The wire query this page was fetched with. */
  query: Record<string, string>
  /** Where the walk goes on after this page; `null` when this was the last page. */
  cursor: PageCursor | null
}
