import type { RequestInfo } from './api-error.js'
import { MarketCandlesError } from './market-candles-error.js'

/** No response: the connection failed or broke. `cause` is the runtime's own error. */
export class APIConnectionError extends MarketCandlesError {
  override name = 'APIConnectionError'
  readonly method: string
  readonly url: string

  constructor(request: RequestInfo, message = 'Connection error', options?: { cause?: unknown }) {
    super(`${message} (${request.method} ${request.url})`, options)
    this.method = request.method
    this.url = request.url
  }
}

/** No response within `timeout` milliseconds. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError'
  constructor(request: RequestInfo, timeout: number) {
    super(request, `Request timed out after ${timeout} ms`)
  }
}

/** The caller's `AbortSignal` fired. `reason` is the signal's reason. */
export class APIUserAbortError extends MarketCandlesError {
  override name = 'APIUserAbortError'
  readonly reason: unknown
  constructor(reason?: unknown) {
    super('Request was aborted')
    this.reason = reason
  }
}
