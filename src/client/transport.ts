import ky, { type KyInstance } from 'ky'
import { API_KEY_HEADER, ENDPOINTS, type EndpointName } from '../contract/index.js'
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  RateLimitError,
  ResponseValidationError,
  type RequestInfo,
} from '../errors/index.js'
import type { RateLimiter, ReleaseSlot } from '../rate-limit/rate-limiter.js'
import { describeIssue, responseSchemas, type ResponseOf } from '../contract/index.js'
import { compiled } from '../schemas/compiled.js'
import type { ValidationIssue } from '../schemas/index.js'
import { sleep } from './abortable-sleep.js'
import type { ClientHooks, RequestEvent } from './hooks.js'
import { redact, safeCause } from './redact.js'
import { retryDelay, type RetryPolicy } from './retry-policy.js'

/** What the transport needs; `createClient` resolves it from the user's options. */
export interface TransportConfig {
  apiKey: string | undefined
  baseUrl: string
  timeout: number | false
  retry: RetryPolicy
  limiter: RateLimiter | undefined
  fetch: typeof fetch | undefined
  validate: boolean
  hooks: ClientHooks
}

/** Options every request method takes. */
export interface RequestOptions {
  /** Aborts the request, its rate-limit wait and its retry waits. */
  signal?: AbortSignal
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

/**
 * The one place that speaks HTTP: rate limit, send, map the answer to data or a typed error,
 * retry. The key is set as a header on candle endpoints only and never copied anywhere else.
 */
export class Transport {
  readonly #config: TransportConfig
  readonly #ky: KyInstance

  // Each endpoint's URL is resolved once: only the query changes from request to request.
  readonly #bases: Record<EndpointName, string>

  constructor(config: TransportConfig) {
    this.#config = config
    const root = `${config.baseUrl.replace(/\/+$/, '')}/`
    this.#bases = Object.fromEntries(
      Object.entries(ENDPOINTS).map(([name, e]) => [name, new URL(e.path.slice(1), root).toString()]),
    ) as Record<EndpointName, string>
    // Retries are ours: the shared limiter must gate every attempt and a 429 must pause it.
    this.#ky = ky.create({ retry: 0, throwHttpErrors: false, timeout: config.timeout, fetch: config.fetch })
  }

  /** The URL of an endpoint with a query, as sent. */
  url(endpoint: EndpointName, query: Record<string, string>): string {
    const search = new URLSearchParams(query).toString()
    return search === '' ? this.#bases[endpoint] : `${this.#bases[endpoint]}?${search}`
  }

  /** GETs an endpoint and returns its validated body. */
  async get<E extends EndpointName>(endpoint: E, query: Record<string, string>, options: RequestOptions = {}): Promise<ResponseOf<E>> {
    const { hooks, retry, limiter } = this.#config
    const { signal } = options
    const authenticated = ENDPOINTS[endpoint].authenticated
    const info: RequestInfo = { method: 'GET', url: this.url(endpoint, query) }
    for (let attempt = 0; ; attempt++) {
      const event: RequestEvent = { endpoint, method: 'GET', url: info.url, attempt }
      let error: Error
      try {
        if (signal?.aborted) throw new APIUserAbortError(signal.reason)
        // Catalog calls are never counted by the service, so they do not spend the limit.
        const release = authenticated ? await limiter?.acquire(signal) : undefined
        return await this.#attempt(endpoint, info, event, signal, release)
      } catch (caught) {
        error = caught as Error
      }
      const delay = retryDelay(error, attempt + 1, retry)
      if (error instanceof RateLimitError) limiter?.pause(delay ?? (error.retryAfter ?? 1) * 1000)
      if (delay === undefined) {
        hooks.onError?.({ ...event, error })
        throw error
      }
      hooks.onRetry?.({ ...event, error, delayMs: delay })
      await sleep(delay, signal)
    }
  }

  async #attempt<E extends EndpointName>(
    endpoint: E,
    info: RequestInfo,
    event: RequestEvent,
    signal: AbortSignal | undefined,
    release: ReleaseSlot | undefined,
  ): Promise<ResponseOf<E>> {
    const { hooks, apiKey, validate, timeout } = this.#config
    const headers: Record<string, string> = {}
    if (ENDPOINTS[endpoint].authenticated && apiKey !== undefined) headers[API_KEY_HEADER] = apiKey
    hooks.onRequest?.(event)
    const started = performance.now()
    let res: Response
    let text: string
    try {
      try {
        res = await this.#ky.get(info.url, { headers, signal })
      } finally {
        // The service has counted the request by the time its answer starts to arrive.
        release?.()
      }
      text = await res.text()
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError(signal.reason)
      if ((error as Error).name === 'TimeoutError') throw new APITimeoutError(info, timeout as number)
      // ky's errors carry the request and its headers: only a sanitized copy of the runtime's cause is kept.
      const cause = (error as Error).name === 'NetworkError' ? (error as Error).cause : error
      throw new APIConnectionError(info, 'Connection error', { cause: safeCause(cause, apiKey) })
    }
    hooks.onResponse?.({ ...event, status: res.status, durationMs: performance.now() - started })
    const body = parseJson(text)
    if (!res.ok) {
      const detail = body.ok && body.value !== null && typeof body.value === 'object' ? (body.value as { detail?: unknown }).detail : undefined
      const readable = typeof detail === 'string' || Array.isArray(detail) ? (detail as string | ValidationIssue[]) : text.slice(0, 200) || undefined
      // A service that echoes the key back must not put it into a thrown object.
      throw APIError.from(res.status, redact(readable, apiKey), info, redact(headersOf(res), apiKey))
    }
    if (!body.ok) throw new ResponseValidationError(info, [`body is not JSON: ${JSON.stringify(text.slice(0, 80))}`])
    if (!validate) return body.value as ResponseOf<E>
    const parsed = compiled(responseSchemas[endpoint]).safeParse(body.value)
    if (!parsed.success) throw new ResponseValidationError(info, parsed.error.issues.map((issue) => describeIssue(issue, 'body')))
    return parsed.data as ResponseOf<E>
  }
}
