import { APIConnectionError, APIError, RateLimitError } from '../errors/index.js'

/** How failed requests are retried. Every request is a GET, so a retry is always safe. */
export interface RetryOptions {
  /** Retries after the first attempt. @default 2 */
  limit?: number
  /** Delay before the first retry, doubled at each further one. @default 500 */
  baseDelayMs?: number
  /** Cap of the exponential delay. @default 8000 */
  maxDelayMs?: number
  /** Cap of a `Retry-After` the client is willing to wait; over it, the 429 is thrown. @default 60000 */
  maxRetryAfterMs?: number
}

/** Resolved retry options. */
export type RetryPolicy = Required<RetryOptions>

/** Default retry options. */
export const DEFAULT_RETRY: RetryPolicy = { limit: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 }

/** Resolves `retry` options; `false` or `0` switch retries off. */
export function retryPolicy(options: RetryOptions | number | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, limit: 0 }
  const merged = { ...DEFAULT_RETRY, ...(typeof options === 'number' ? { limit: options } : options) }
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${key} must be a non-negative number, got ${value}`)
  }
  if (!Number.isInteger(merged.limit)) throw new RangeError(`retry.limit must be an integer, got ${merged.limit}`)
  return merged
}

/**
 * Milliseconds to wait before retrying after `error` at `attempt` (1 = first retry), or undefined
 * when the error is not retried: 429 (waiting out `Retry-After`), 5xx, connection failures and
 * timeouts are; 401, 403, 404, 422 and everything else are not.
 */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  if (attempt > policy.limit) return undefined
  if (error instanceof RateLimitError) {
    const retryAfter = error.retryAfter
    if (retryAfter !== undefined) {
      const ms = retryAfter * 1000
      return ms > policy.maxRetryAfterMs ? undefined : ms
    }
  } else if (!(error instanceof APIConnectionError || (error instanceof APIError && error.status >= 500))) {
    return undefined
  }
  // Exponential backoff with full jitter: spread between half and all of the step.
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.round(step / 2 + (random() * step) / 2)
}
