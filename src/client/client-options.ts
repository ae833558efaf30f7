import { DEFAULT_BASE_URL } from '../contract/index.js'
import { RateLimiter, type RateLimiterOptions } from '../rate-limit/rate-limiter.js'
import type { ClientHooks } from './hooks.js'
import { retryPolicy, type RetryOptions } from './retry-policy.js'
import type { TransportConfig } from './transport.js'

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * The API key, sent as `X-API-Key` on the two candle endpoints only.
   * @default process.env.MARKET_CANDLES_API_KEY
   */
  apiKey?: string
  /**
   * The service's base URL; a path prefix is allowed.
   * @default process.env.MARKET_CANDLES_BASE_URL, else DEFAULT_BASE_URL
   */
  baseUrl?: string
  /** Per-attempt timeout in milliseconds, or `false` for none. @default 30000 */
  timeout?: number | false
  /** Retries of 429, 5xx, connection failures and timeouts; a number is the retry limit; `false` for none. @default { limit: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 } */
  retry?: RetryOptions | number | false
  /**
   * The client-side rate limit of candle requests: a {@link RateLimiter} to share with other clients
   * (keys of one account share one limit), options for a limiter of this client's own, or `false`.
   * @default a limiter of 10 requests per second
   */
  rateLimit?: RateLimiter | RateLimiterOptions | false
  /** A `fetch` to use instead of the global one (for proxies, tests, other runtimes). */
  fetch?: typeof fetch
  /** Validate every response body against the shared schemas. @default true */
  validate?: boolean
  /** Observe requests, for logging and metrics. They never see headers. */
  hooks?: ClientHooks
}

const env = (name: string): string | undefined =>
  typeof process !== 'undefined' && typeof process.env === 'object' ? process.env[name] || undefined : undefined

/** Resolves and checks the options; throws a clear error for each bad one. */
export function resolveOptions(options: ClientOptions): TransportConfig {
  const apiKey = options.apiKey ?? env('MARKET_CANDLES_API_KEY')
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === '')) {
    throw new TypeError('apiKey must be a non-empty string (omit it to call the public catalog endpoints only)')
  }
  const baseUrl = options.baseUrl ?? env('MARKET_CANDLES_BASE_URL') ?? DEFAULT_BASE_URL
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`)
  }
  if (new URL(baseUrl).search !== '' || new URL(baseUrl).hash !== '') throw new TypeError('baseUrl must not have a query or fragment')
  const timeout = options.timeout ?? 30_000
  if (timeout !== false && !(Number.isInteger(timeout) && timeout > 0 && timeout <= 2_147_483_647)) {
    throw new RangeError(`timeout must be a positive integer of milliseconds or false, got ${timeout}`)
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('fetch must be a function')
  const limiter =
    options.rateLimit === false ? undefined
    : options.rateLimit instanceof RateLimiter ? options.rateLimit
    : new RateLimiter(options.rateLimit ?? {})
  return {
    apiKey,
    baseUrl,
    timeout,
    retry: retryPolicy(options.retry),
    limiter,
    fetch: options.fetch,
    validate: options.validate ?? true,
    hooks: options.hooks ?? {},
  }
}
