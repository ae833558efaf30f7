import * as z from 'zod/mini'
import { parseDateTime } from '../../../src/contract/index.js'
import type { JournalFilter } from './journal-entry.js'

/** The longest a `GET /_mock/requests?wait_for=N` waits; a longer wait is several calls. */
export const MAX_WAIT_MS = 60_000

// A pattern, so the OpenAPI document shows what fits, then the bound, which a pattern cannot say well.
const digits = (pattern: RegExp, max: number, what: string) =>
  z.string().check(z.regex(pattern, { error: `must be ${what}` }), z.refine((text) => Number(text) <= max, { error: `must be ${what}`, params: { type: 'value_error' } }))

/**
 * The query of `GET /_mock/requests`: filters, and the wait form (`wait_for=N`, `timeout_ms=T`).
 * Every value is one string; an unknown parameter is refused, so a misspelt filter never lists
 * everything.
 */
export const requestsQuerySchema = z.strictObject({
  /** Exact path, e.g. `/v1/exchange_ohlcv`. */
  path: z.optional(z.string().check(z.startsWith('/', { error: 'must start with "/"' }))),
  /** The status answered, e.g. `429`. */
  status: z.optional(digits(/^[1-5]\d\d$/, 599, 'a status from 100 to 599')),
  /** The account the key acted as. */
  account: z.optional(z.string()),
  /** The request's method. */
  method: z.optional(z.string()),
  /** Requests after this `seq` number, or at or after this ISO 8601 instant (wall clock). */
  since: z.optional(
    z.string().check(z.refine((t) => /^\d{1,15}$/.test(t) || parseDateTime(t).ok, { error: 'must be a seq number or a datetime', params: { type: 'value_error' } })),
  ),
  /** Wait until this many matching requests have arrived (those already there count). */
  wait_for: z.optional(digits(/^[1-9]\d{0,6}$/, 1_000_000, 'an integer from 1 to 1000000')),
  /** How long to wait, in milliseconds, at most 60000. @default 5000 */
  timeout_ms: z.optional(digits(/^\d{1,5}$/, MAX_WAIT_MS, `an integer from 0 to ${MAX_WAIT_MS}`)),
})
/** The query of `GET /_mock/requests`. */
export type RequestsQuery = z.infer<typeof requestsQuerySchema>

/** The journal filter of a parsed query. */
export function filterOf(query: RequestsQuery): JournalFilter {
  const { path, status, account, method, since } = query
  return {
    ...(path !== undefined && { path }),
    ...(status !== undefined && { status: Number(status) }),
    ...(account !== undefined && { account }),
    ...(method !== undefined && { method }),
    ...(since !== undefined && { since: /^\d+$/.test(since) ? Number(since) : since }),
  }
}
