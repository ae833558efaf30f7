import { API_KEY_HEADER, DEFAULT_BASE_URL, ENDPOINTS, type EndpointName } from '../../contract/endpoints.js'
import type { ResponseOf } from '../../contract/index.js'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  RateLimitError,
  ResponseValidationError,
  type RequestInfo,
} from '../../errors/index.js'
import { abortError, sleep, throwIfAborted } from '../../internal/abort.js'
import { markCloseTimesChecked } from '../../internal/checked-close-times.js'
import type { ReleaseSlot, SlotLimiter } from '../../rate-limit/slot-limiter.js'
import { checkShape } from '../../schemas/wire/wire-shape.js'
import { RESPONSE_SHAPES } from '../../schemas/wire/wire-shapes.js'
import { errorDetailOf } from './error-detail.js'
import type { ClientHooks, RequestEvent } from '../options/hooks.js'
import type { LevelLogger } from '../options/logger.js'
import { redact, safeCause } from './redact.js'
import type { RequestOptions } from '../options/request-options.js'
import { rateLimitDelay, retryDelay, type RetryPolicy } from './retry-policy.js'
import { ExchangeTimeout, timedFetch } from './timed-fetch.js'
import { userAgent } from './user-agent.js'

/** What the transport needs; `createClient` resolves it from the user's options. */
export interface TransportConfig {
  apiKey: string | undefined
  baseUrl: string
  timeout: number | false
  retry: RetryPolicy
  limiter: SlotLimiter | undefined
  fetch: typeof fetch | undefined
  validate: boolean
  hooks: ClientHooks
  headers: Record<string, string>
  log: LevelLogger
}

/** A method's data with the HTTP response it came in (its body already read). */
export interface WithResponse<T> {
  data: T
  /** The response: `status`, `headers` (`RateLimit-*` included), `url`. Its body has been read. */
  response: Response
}

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {}
  res.headers.forEach((value, key) => (out[key] = value))
  return out
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const NO_KEY = "no API key was sent: set the client's apiKey option or the MARKET_CANDLES_API_KEY environment variable"

const ms = (since: number) => Math.round(performance.now() - since)

/**
 * The one place that speaks HTTP: rate limit, send, map the answer to data or a typed error,
 * retry, log. The key is set as a header on candle endpoints only and never copied anywhere else.
 */
export class Transport {
  readonly #config: TransportConfig
  readonly #fetch: typeof fetch
  readonly #userAgent = userAgent()
  // The placeholder never resolves: its connection errors say so and are not retried.
  readonly #placeholder: boolean

  // Each endpoint's URL is resolved once: only the query changes from request to request.
  readonly #bases: Record<EndpointName, string>
  // The User-Agent and the client's own headers, in the order they are set on each request.
  readonly #clientHeaders: ReadonlyArray<readonly [string, string]>

  constructor(config: TransportConfig) {
    this.#config = config
    this.#placeholder = new URL(config.baseUrl).host === new URL(DEFAULT_BASE_URL).host
    this.#clientHeaders = [...(this.#userAgent === undefined ? [] : [['User-Agent', this.#userAgent] as const]), ...Object.entries(config.headers)]
    const root = `${config.baseUrl.replace(/\/+$/, '')}/`
    this.#bases = Object.fromEntries(
      Object.entries(ENDPOINTS).map(([name, e]) => [name, new URL(e.path.slice(1), root).toString()]),
    ) as Record<EndpointName, string>
    // The global fetch is looked up per request: a test environment (MSW, jsdom) may replace it later.
    this.#fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init))
  }

  /** The URL of an endpoint with a query, as sent. */
  url(endpoint: EndpointName, query: Record<string, string>): string {
    const search = new URLSearchParams(query).toString()
    return search === '' ? this.#bases[endpoint] : `${this.#bases[endpoint]}?${search}`
  }

  /** GETs an endpoint; resolves its validated body and the response it came in. */
  async request<E extends EndpointName>(endpoint: E, query: Record<string, string>, options: RequestOptions = {}): Promise<WithResponse<ResponseOf<E>>> {
    const { hooks, retry, limiter, log } = this.#config
    const { signal } = options
    const policy = options.maxRetries === undefined ? retry : { ...retry, limit: options.maxRetries }
    const authenticated = ENDPOINTS[endpoint].authenticated
    const info: RequestInfo = { method: 'GET', url: this.url(endpoint, query) }
    const started = performance.now()
    let retries = 0
    let rateLimited = 0
    let rateLimitWaitMs = 0
    for (let attempt = 0; ; attempt++) {
      const event: RequestEvent = { endpoint, method: 'GET', url: info.url, attempt }
      let error: Error
      try {
        throwIfAborted(signal)
        let release: ReleaseSlot | undefined
        // Catalog calls are never counted by the service, so they do not spend the limit.
        if (authenticated && limiter) {
          const waitStarted = performance.now()
          release = await limiter.acquire(signal)
          const waited = ms(waitStarted)
          if (waited > 0) log.log('debug', `rate limiter held GET ${info.url} for ${waited} ms`, { url: info.url, attempt, waitMs: waited, share: limiter.share })
        }
        const result = await this.#attempt(endpoint, info, event, options, release)
        // Each line is built only when its level is on: an unused logger costs nothing per request.
        if (log.enabled('info')) log.log('info', `GET ${info.url} -> ${result.response.status} (${ms(started)} ms, ${attempt + 1} attempt${attempt === 0 ? '' : 's'})`, { url: info.url, status: result.response.status, durationMs: ms(started), attempts: attempt + 1 })
        return result
      } catch (caught) {
        error = caught as Error
      }
      let delay: number | undefined
      if (error instanceof RateLimitError) {
        // 429s have their own bound, a total wait: they never spend the retry limit.
        delay = rateLimitDelay(error, rateLimitWaitMs, ++rateLimited, policy)
        if (delay !== undefined) rateLimitWaitMs += delay
      } else if (!(error instanceof APIConnectionError && this.#placeholder)) {
        delay = retryDelay(error, retries + 1, policy)
        if (delay !== undefined) retries++
      }
      if (delay === undefined) {
        hooks.onError?.({ ...event, error })
        log.log('error', `GET ${info.url} failed after ${attempt + 1} attempt${attempt === 0 ? '' : 's'} (${ms(started)} ms): ${error.name}: ${error.message}`, { url: info.url, error: error.name, attempts: attempt + 1, durationMs: ms(started) })
        throw error
      }
      hooks.onRetry?.({ ...event, error, delayMs: delay })
      log.log('warn', `retrying GET ${info.url} in ${delay} ms after ${error instanceof APIError ? error.status : error.name} (attempt ${attempt + 2})`, { url: info.url, attempt: attempt + 1, delayMs: delay, error: error.name })
      await sleep(delay, signal)
    }
  }

  async #attempt<E extends EndpointName>(
    endpoint: E,
    info: RequestInfo,
    event: RequestEvent,
    options: RequestOptions,
    release: ReleaseSlot | undefined,
  ): Promise<WithResponse<ResponseOf<E>>> {
    const { hooks, apiKey, validate, log } = this.#config
    const { signal } = options
    const timeout = options.timeout ?? this.#config.timeout
    const headers = new Headers()
    for (const [name, value] of this.#clientHeaders) headers.set(name, value)
    if (options.headers !== undefined) for (const [name, value] of Object.entries(options.headers)) headers.set(name, value)
    if (ENDPOINTS[endpoint].authenticated && apiKey !== undefined) headers.set(API_KEY_HEADER, apiKey)
    hooks.onRequest?.(event)
    const started = performance.now()
    // The service has counted the request by the time its answer starts to arrive; the limiter
    // reads the account's state from the answer's headers.
    const answered = (r?: Response) => release?.(r && { status: r.status, headers: r.headers })
    let res: Response
    let text: string
    try {
      const answer = await timedFetch(this.#fetch, { url: info.url, headers, signal, timeout }, answered)
      res = answer.response
      text = answer.text
    } catch (error) {
      if (signal?.aborted) throw abortError(signal)
      if (log.enabled('debug')) log.log('debug', `GET ${info.url} -> no response after ${ms(started)} ms (attempt ${event.attempt + 1})`, { url: info.url, attempt: event.attempt, durationMs: ms(started) })
      if (error instanceof ExchangeTimeout) throw new APITimeoutError(info, timeout as number)
      // Only a sanitized copy of the runtime's error is kept (it may carry the request's headers).
      const message = this.#placeholder
        ? `Connection error: ${DEFAULT_BASE_URL} is a placeholder that never resolves; set the client's baseUrl option (or the MARKET_CANDLES_BASE_URL environment variable) to the service's URL`
        : 'Connection error'
      throw new APIConnectionError(info, message, { cause: safeCause(error, apiKey) })
    }
    hooks.onResponse?.({ ...event, status: res.status, durationMs: performance.now() - started })
    if (log.enabled('debug')) log.log('debug', `GET ${info.url} -> ${res.status} in ${ms(started)} ms (attempt ${event.attempt + 1})`, { url: info.url, status: res.status, attempt: event.attempt, durationMs: ms(started) })
    if (!res.ok) {
      // A service that echoes the key back must not put it into a thrown object.
      const detail = redact(errorDetailOf(text), apiKey)
      const headers = redact(headersOf(res), apiKey)
      // A missing key is answered 401 (the reference) or 403 (D13): either way the SDK knows the
      // request carried none, and says so.
      if ((res.status === 401 || res.status === 403) && ENDPOINTS[endpoint].authenticated && !apiKey) throw new AuthenticationError(res.status, detail, info, headers, NO_KEY)
      throw APIError.from(res.status, detail, info, headers)
    }
    const body = parseJson(text)
    if (!body.ok) throw new ResponseValidationError(info, [`body is not JSON: ${JSON.stringify(text.slice(0, 80))}`])
    if (!validate) return { data: body.value as ResponseOf<E>, response: res }
    // The body's schema as plain data: no zod in the client bundle (same verdicts and problems).
    const checked = checkShape(RESPONSE_SHAPES[endpoint], body.value, 'body', true) // the body was parsed here: fixed in place
    if (!checked.ok) throw new ResponseValidationError(info, checked.problems)
    // The walks' gap tracking reads a checked page of candles from its ends (gap-tracker.ts).
    if (endpoint === 'exchange_ohlcv' || endpoint === 'aggregated_ohlcv') markCloseTimesChecked(checked.value as unknown[])
    return { data: checked.value as ResponseOf<E>, response: res }
  }
}
