import * as z from 'zod/mini'
import { FAULT_KINDS } from '../faults/fault-schema.js'

/**
 * Why the service refused a request, beside its status: the parameters of a 422, the rule of a
 * 401, 403 or 404 (its detail), the window of a 429; `routing` for an unknown path or method.
 */
export const rejectionReasonSchema = z.union([
  z.object({ rule: z.literal('validation'), fields: z.array(z.string()) }),
  z.object({ rule: z.enum(['authentication', 'resolution', 'plan', 'routing']), detail: z.string() }),
  z.object({ rule: z.literal('rate_limit'), limit: z.int(), retry_after: z.int() }),
])
/** Why the service refused a request (see `rejectionReasonSchema`). */
export type RejectionReason = z.infer<typeof rejectionReasonSchema>

/**
 * One request as the journal recorded it. The API key is never recorded: `account` is the account
 * it acts as (null without a valid key, and on the public endpoints, which ignore keys).
 */
export const journalEntrySchema = z.object({
  /** 1, 2, 3... in arrival order, per service or session; `since` filters by it. */
  seq: z.int(),
  method: z.string(),
  path: z.string(),
  /** The query as parsed: a repeated parameter keeps every value, as an array. */
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  account: z.nullable(z.string()),
  /** The status answered; null when an injected fault broke the connection instead. */
  status: z.nullable(z.int()),
  /** Why a 401, 403, 404, 405, 422 or 429 was answered; null otherwise (and for an injected fault). */
  reason: z.nullable(rejectionReasonSchema),
  /** The injected fault applied to this request, if any. */
  fault: z.nullable(z.object({ id: z.string(), kind: z.enum(FAULT_KINDS) })),
  /** When it arrived, on the wall clock and on the service's clock (ISO 8601 with milliseconds). */
  time: z.object({ wall: z.string(), service: z.string() }),
})
/** One request as the journal recorded it (see `journalEntrySchema`). */
export type JournalEntry = z.infer<typeof journalEntrySchema>

/** Which journal entries to list or wait for; every field given must match. */
export interface JournalFilter {
  /** Exact path, e.g. `/v1/exchange_ohlcv`. */
  path?: string
  status?: number
  account?: string
  /** Entries after this one: a `seq` number, or an instant on the wall clock (entries at or after it). */
  since?: number | string | Date
  /** The request's method. */
  method?: string
}
