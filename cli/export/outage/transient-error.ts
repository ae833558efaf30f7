import { APIConnectionError, APIError, RateLimitError } from '../../../src/errors/index.js'
import { SeriesFailure } from '../history/runner.js'

/**
 * Whether an error that ended the client's retries is one a follower waits out: the service
 * unreachable or timing out (APIConnectionError, APITimeoutError), answering 5xx, or 429s past the
 * client's bound. Anything else (401, 403, 404, a bad answer) is a fault to report, not an outage.
 */
export function isTransient(error: unknown): boolean {
  const cause = error instanceof SeriesFailure ? error.cause : error
  return cause instanceof APIConnectionError || cause instanceof RateLimitError || (cause instanceof APIError && cause.status >= 500)
}

/** A short reason for an outage line: `503`, `connection error`, `timeout after 30000 ms`. Never holds the key or a URL. */
export function outageReason(error: unknown): string {
  const cause = error instanceof SeriesFailure ? error.cause : error
  if (cause instanceof APIError) return String(cause.status)
  if (cause instanceof Error && cause.name === 'APITimeoutError') return 'timeout'
  if (cause instanceof APIConnectionError) return 'connection error'
  return cause instanceof Error ? cause.name : 'error'
}
