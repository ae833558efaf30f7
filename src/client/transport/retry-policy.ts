import { APIConnectionError, APIError, RateLimitError } from '../../errors/index.js'

/** How failed requests are retried. Every request is a GET, so a retry is always safe. */
export interface RetryOptions {
  /** Retries after the first attempt, for 5xx, connection failures and timeouts (429s have their own bound). @default 2 */
  limit?: number
  /** Delay before the first retry, doubled at each further one. @default 500 */
  baseDelayMs?: number
  /** Cap of the exponential delay. @default 8000 */
  maxDelayMs?: number
  /** Cap of one `Retry-After` the client is willing to wait; over it, the 429 is thrown at once. @default 60000 */
  maxRetryAfterMs?: number
  /**
   * The bound of 429s: the total time one call may spend waiting them out. 429s do not spend
   * `limit`; a call fails with `RateLimitError` only when its next wait would pass this total.
   * @default 60000
   */
  maxRateLimitWaitMs?: number
}

/** Resolved retry options. */
export type RetryPolicy = Required<RetryOptions>

/** Default retry options. */
export const DEFAULT_RETRY: RetryPolicy = { limit: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000, maxRateLimitWaitMs: 60_000 }

const RETRY_KEYS = Object.keys(DEFAULT_RETRY)

/** Share of a 429's wait added at random, so calls that met one full window do not all come back at once. */
const RATE_LIMIT_JITTER = 0.25

/** Resolves `retry` options; `false` or `0` switch retries off (429s included). */
export function retryPolicy(options: RetryOptions | number | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, limit: 0, maxRateLimitWaitMs: 0 }
  if (typeof options === 'number') return retryPolicy({ limit: options, ...(options === 0 ? { maxRateLimitWaitMs: 0 } : {}) })
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new TypeError(`retry must be an object, a number or false, got ${String(options)}`)
  for (const key of Object.keys(options ?? {})) {
    if (!RETRY_KEYS.includes(key)) throw new TypeError(`Unknown option 'retry.${key}'. Known options: ${RETRY_KEYS.join(', ')}.`)
  }
  const merged = { ...DEFAULT_RETRY, ...options }
  for (const [key, value] of Object.entries(merged)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`retry.${key} must be a non-negative number, got ${value}`)
  }
  if (!Number.isInteger(merged.limit)) throw new RangeError(`retry.limit must be an integer, got ${merged.limit}`)
  return merged
}

/**
 * Milliseconds to wait before retrying after `error` at `attempt` (1 = first retry), or undefined
 * when the error is not retried: 5xx, connection failures and timeouts are; 401, 403, 404, 422,
 * 429 (see {@link rateLimitDelay}) and everything else are not.
 */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  if (attempt > policy.limit) return undefined
  if (!(error instanceof APIConnectionError || (error instanceof APIError && error.status >= 500))) return undefined
  return backoff(attempt, policy, random)
}

/**
 * Milliseconds to wait before retrying a 429, given the time this call has already waited for 429s;
 * undefined when the call should fail: the `Retry-After` is over `maxRetryAfterMs`, or the wait
 * would take the call past `maxRateLimitWaitMs`. The wait is `Retry-After` (backoff when absent)
 * plus up to a quarter of it at random.
 */
export function rateLimitDelay(error: RateLimitError, waitedMs: number, rateLimited: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  const retryAfter = error.retryAfter
  if (retryAfter !== undefined && retryAfter * 1000 > policy.maxRetryAfterMs) return undefined
  const base = retryAfter !== undefined ? retryAfter * 1000 : backoff(rateLimited, policy, random)
  const delay = Math.round(base * (1 + RATE_LIMIT_JITTER * random()))
  return waitedMs + delay > policy.maxRateLimitWaitMs ? undefined : delay
}

// Exponential backoff with jitter: spread between half and all of the step.
function backoff(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.round(step / 2 + (random() * step) / 2)
}
