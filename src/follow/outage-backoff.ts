/*
 * How a follow rides out an outage: which failures are worth waiting out, and how long to wait
 * before each next try. Pure policy: the engine applies it; tests drive it directly.
 */
import { DEFAULT_BASE_URL } from '../contract/endpoints.js'
import { APIConnectionError, APIError } from '../errors/index.js'

/**
 * The waits between a follow's tries during an outage (after the client's own retries gave up):
 * `firstMs`, doubling, capped at `capMs`, each drawn between half and all of its step (jitter, so
 * many followers do not come back at once).
 */
export const OUTAGE_BACKOFF = { firstMs: 1000, capMs: 60_000 } as const

/** The wait before try number `attempt` (1 = the first after a failure) of an outage, in ms. */
export function outageDelayMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(OUTAGE_BACKOFF.capMs, OUTAGE_BACKOFF.firstMs * 2 ** Math.min(attempt - 1, 30))
  return Math.round(step / 2 + (random() * step) / 2)
}

/**
 * True for a failure that time can fix: no connection, a timeout, a 5xx, a 429. Anything else
 * (401, 403, 404, 422, a body that fails validation, an abort, the placeholder base URL) is not.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof APIConnectionError) return !error.url.startsWith(DEFAULT_BASE_URL)
  return error instanceof APIError && (error.status >= 500 || error.status === 429)
}
