import * as z from 'zod/mini'

/*
 * The cursor's zod schema, a public name, apart from the walks that build cursors (page-cursor.ts):
 * what imports the walks (the client, the CLI's export) then loads no zod. The client checks a
 * cursor it is given with the same rules as plain data (wire/wire-shapes.ts).
 */

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
