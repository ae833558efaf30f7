import { checkTimeout } from './timeout-option.js'
import { checkHeaders } from './headers-option.js'
import { checkKnownKeys } from '../../internal/known-keys.js'

/**
 * Options every request method takes, over the client's defaults.
 * @example
 * await client.exchangeOhlcv(params, { timeout: 5000, maxRetries: 0, signal: AbortSignal.timeout(10_000), headers: { 'X-Trace-Id': id } })
 */
export interface RequestOptions {
  /** Aborts the request, its rate-limit wait and its retry waits. */
  signal?: AbortSignal
  /** Per-attempt time limit in milliseconds (headers and body), or `false` for none. @default the client's `timeout` */
  timeout?: number | false
  /** Retries of 5xx, connection failures and timeouts for this call (429s have their own bound). @default the client's `retry.limit` */
  maxRetries?: number
  /** Headers for this call, over the client's `headers`. `X-API-Key` is refused: the key is the client's `apiKey`. */
  headers?: Record<string, string>
}

/** The request options' names; a walk takes these and its own. */
export const REQUEST_OPTION_KEYS = ['signal', 'timeout', 'maxRetries', 'headers'] as const satisfies ReadonlyArray<keyof RequestOptions>

/** Checks request options; throws a clear error for an unknown or bad one. */
export function checkRequestOptions(options: unknown, where: string, known: readonly string[] = REQUEST_OPTION_KEYS): RequestOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object') throw new TypeError(`${where} options must be an object`)
  checkKnownKeys(where, options, known)
  const { signal, timeout, maxRetries, headers } = options as RequestOptions
  if (signal !== undefined && !isAbortSignal(signal)) throw new TypeError('signal must be an AbortSignal')
  if (timeout !== undefined) checkTimeout(timeout, 'timeout')
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new RangeError(`maxRetries must be a non-negative integer, got ${String(maxRetries)}`)
  if (headers !== undefined) checkHeaders(headers, 'headers')
  return options as RequestOptions
}

// A signal of another realm (a test runner's, a polyfill) is fine as long as it behaves like one.
function isAbortSignal(value: unknown): value is AbortSignal {
  return typeof value === 'object' && value !== null && typeof (value as AbortSignal).aborted === 'boolean' && typeof (value as AbortSignal).addEventListener === 'function'
}
