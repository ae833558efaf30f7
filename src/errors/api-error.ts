import type { ValidationIssue } from '../schemas/index.js'
import { MarketCandlesError } from './market-candles-error.js'

/** Where a failed request went: never its headers. */
export interface RequestInfo {
  method: string
  /** The full URL, query included. The key travels in a header, so it is never here. */
  url: string
}

/**
 * The service answered with an error status. One subclass per status; `detail` is the service's
 * own words (docs/contract.md#error-bodies).
 */
export class APIError extends MarketCandlesError {
  override name = 'APIError'
  readonly status: number
  /** The body's `detail`: a sentence, or the list of issues of a 422. */
  readonly detail: string | ValidationIssue[] | undefined
  readonly method: string
  readonly url: string
  /** Response headers, e.g. `retry-after`, `ratelimit-remaining`. */
  readonly headers: Record<string, string>

  /** `hint`: what the SDK knows of the cause beyond the answer, e.g. that no key was sent. */
  constructor(status: number, detail: string | ValidationIssue[] | undefined, request: RequestInfo, headers: Record<string, string> = {}, hint?: string) {
    // Issues of any shape (pydantic v1 or v2): the last part of `loc` names the parameter when there is one.
    const issue = (i: ValidationIssue) => (Array.isArray(i.loc) && i.loc.length > 0 ? `${String(i.loc.at(-1))}: ${i.msg}` : String(i.msg))
    const text = typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map(issue).join('; ') : 'no detail'
    super(`${status} ${text}${hint === undefined ? '' : `; ${hint}`} (${request.method} ${request.url})`)
    this.status = status
    this.detail = detail
    this.method = request.method
    this.url = request.url
    this.headers = headers
  }

  /** The error class for a status. */
  static from(status: number, detail: string | ValidationIssue[] | undefined, request: RequestInfo, headers: Record<string, string> = {}): APIError {
    const Class =
      status === 401 ? AuthenticationError
      : status === 403 ? PermissionDeniedError
      : status === 404 ? NotFoundError
      : status === 422 ? UnprocessableEntityError
      : status === 429 ? RateLimitError
      : status >= 500 ? InternalServerError
      : APIError
    return new Class(status, detail, request, headers)
  }
}

/**
 * 401: the key is missing, empty, unknown or revoked (docs/contract.md#authentication). Also a 403
 * to a request the SDK sent without a key: some deployments answer a missing key 403 (D13).
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError'
}

/** 403: the plan does not include the endpoint or interval, or `start` is beyond its history depth. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError'
}

/** 404: an unknown exchange, interval, method or pair, or an unknown path. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError'
}

/** 422: the service rejected the parameters; `issues` lists them (docs/contract.md#error-bodies). */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError'
  /** One issue per bad parameter. */
  get issues(): ValidationIssue[] {
    return Array.isArray(this.detail) ? this.detail : []
  }
}

/** 429: over the account's rate limit (docs/contract.md#rate-limit). */
export class RateLimitError extends APIError {
  override name = 'RateLimitError'
  /** Seconds to wait, from `Retry-After`; undefined when the header is absent or unreadable. */
  get retryAfter(): number | undefined {
    const value = Number(this.headers['retry-after'])
    return Number.isFinite(value) && value >= 0 ? value : undefined
  }
}

/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError'
}
