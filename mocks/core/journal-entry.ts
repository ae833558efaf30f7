import type { RawQuery } from '../../src/contract/index.js'

/** The kinds of injected fault (see `Fault.kind`). */
export type FaultKind = 'status' | 'network_error' | 'reset' | 'truncate' | 'slow_body' | 'hang' | 'latency'

/**
 * Why the service refused a request, beside its status: the parameters of a 422, the rule of a
 * 401, 403 or 404 (its detail), the window of a 429.
 */
export type RejectionReason =
  | { rule: 'validation'; fields: string[] }
  | { rule: 'authentication' | 'resolution' | 'plan' | 'routing'; detail: string }
  | { rule: 'rate_limit'; limit: number; retry_after: number }

/**
 * One request as the journal recorded it. The API key is never recorded: `account` is the account
 * it acts as (null without a valid key, and on the public endpoints).
 */
export interface JournalEntry {
  /** 1, 2, 3... in arrival order; `since` filters by it. */
  seq: number
  method: string
  path: string
  /** The query as parsed, every value of a repeated parameter kept. */
  query: RawQuery
  account: string | null
  /** The status answered; null when an injected fault broke the connection instead. */
  status: number | null
  /** Why a 401, 403, 404, 405, 422 or 429 was answered; null otherwise. */
  reason: RejectionReason | null
  /** The injected fault applied to this request, if any. */
  fault: { id: string; kind: FaultKind } | null
  /** When it arrived, on the wall clock and on the service's clock (ISO 8601). */
  time: { wall: string; service: string }
}

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
