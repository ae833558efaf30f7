import { DEFAULT_BASE_URL } from '../contract/endpoints.js'
import { RateLimiter, type RateLimiterOptions } from '../rate-limit/rate-limiter.js'
import { isSlotLimiter, type SlotLimiter } from '../rate-limit/slot-limiter.js'
import { checkHeaders } from './options/headers-option.js'
import { checkTimeout } from './options/timeout-option.js'
import type { ClientHooks } from './options/hooks.js'
import { checkKnownKeys } from '../internal/known-keys.js'
import { checkLogger, isLogLevel, levelLogger, LOG_LEVELS, type Logger, type LogLevel } from './options/logger.js'
import { retryPolicy, type RetryOptions } from './transport/retry-policy.js'
import type { TransportConfig } from './transport/transport.js'

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
  /** Per-attempt time limit in milliseconds, for the answer's headers and its body; `false` for none. @default 30000 */
  timeout?: number | false
  /** Retries of 429, 5xx, connection failures and timeouts; a number is the retry limit; `false` for none. @default { limit: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 } */
  retry?: RetryOptions | number | false
  /**
   * The client-side rate limit of candle requests: a {@link RateLimiter} to share with other clients
   * (keys of one account share one limit), a limiter shared by several processes
   * (`createRedisRateLimiter` from `market-candles/redis`, or any {@link SlotLimiter}), options for a
   * limiter of this client's own, or `false`.
   * @default a limiter of 10 requests per second
   */
  rateLimit?: SlotLimiter | RateLimiterOptions | false
  /** A `fetch` to use instead of the global one (for proxies, tests, other runtimes). */
  fetch?: typeof fetch
  /** Validate every response body against the shared schemas. @default true */
  validate?: boolean
  /** Observe requests, for logging and metrics. They never see headers. */
  hooks?: ClientHooks
  /**
   * Headers sent with every request, under the client's own. `X-API-Key` is refused: the key is `apiKey`.
   * @example
   * createClient({ headers: { 'X-Request-Source': 'nightly-import' } })
   */
  headers?: Record<string, string>
  /**
   * What the client logs: `error` (a call failed for good), `warn` (+ each retry), `info` (+ one
   * line per call), `debug` (+ each attempt, with status and milliseconds, and each rate-limiter
   * wait). Lines never hold the API key or any header.
   * @default process.env.MARKET_CANDLES_LOG, else 'off'
   */
  logLevel?: LogLevel
  /**
   * Where log lines go: an object with `error`, `warn`, `info` and `debug` methods.
   * @default console
   * @example
   * createClient({ logLevel: 'debug', logger: pino() })
   */
  logger?: Logger
}

/** The options `createClient` knows; any other key is refused. */
const CLIENT_OPTION_KEYS = ['apiKey', 'baseUrl', 'timeout', 'retry', 'rateLimit', 'fetch', 'validate', 'hooks', 'headers', 'logLevel', 'logger'] as const satisfies ReadonlyArray<keyof ClientOptions>

/** The environment variable of the default log level. */
export const LOG_ENV = 'MARKET_CANDLES_LOG'

const env = (name: string): string | undefined =>
  typeof process !== 'undefined' && typeof process.env === 'object' ? process.env[name] || undefined : undefined

/** Resolves and checks the options; throws a clear error for each bad one. */
export function resolveOptions(options: ClientOptions): TransportConfig {
  if (options === null || typeof options !== 'object') throw new TypeError('createClient options must be an object')
  checkKnownKeys('createClient', options, CLIENT_OPTION_KEYS)
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
  checkTimeout(timeout, 'timeout')
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('fetch must be a function')
  if (options.validate !== undefined && typeof options.validate !== 'boolean') throw new TypeError('validate must be a boolean')
  const limiter =
    options.rateLimit === false ? undefined
    : isSlotLimiter(options.rateLimit) ? options.rateLimit
    : new RateLimiter(options.rateLimit ?? {})
  const logLevel = options.logLevel ?? envLogLevel()
  if (!isLogLevel(logLevel)) throw new TypeError(`logLevel must be one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}, got ${JSON.stringify(logLevel)}`)
  const logger = options.logger === undefined ? console : checkLogger(options.logger)
  return {
    apiKey,
    baseUrl,
    timeout,
    retry: retryPolicy(options.retry),
    limiter,
    fetch: options.fetch,
    validate: options.validate ?? true,
    hooks: options.hooks ?? {},
    headers: checkHeaders(options.headers, 'headers'),
    log: levelLogger(logLevel, logger),
  }
}

// An unreadable MARKET_CANDLES_LOG is not a reason to fail the program: say so once and log nothing.
let warnedEnv = false
function envLogLevel(): LogLevel {
  const value = env(LOG_ENV)
  if (value === undefined) return 'off'
  const level = value.trim().toLowerCase()
  if (isLogLevel(level)) return level
  if (!warnedEnv) {
    warnedEnv = true
    console.warn(`market-candles: ${LOG_ENV}=${JSON.stringify(value)} is not one of ${LOG_LEVELS.join(', ')}; logging stays off`)
  }
  return 'off'
}
