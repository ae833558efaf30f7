import { setTimeout as sleep } from 'node:timers/promises'
import { API_KEY_HEADER } from '../../src/contract/index.js'
import { describeKey, type KeyChoice } from './keys.js'
import type { Pacer } from './pacer.js'

/** One answer as the rules read it, with the request that got it (key shown by label only). */
export interface Answer {
  /** `GET /v1/exchange_ohlcv?... (X-API-Key: <main key, redacted>)`. */
  readonly request: string
  readonly method: string
  /** The path without the query. */
  readonly path: string
  readonly query: string
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, or `undefined` when it is empty or not JSON (`text` has it). */
  readonly body: unknown
  readonly text: string
  /** Whether the body parsed as JSON. */
  readonly json: boolean
  /** When the request left and its answer was read (performance.now() ms): the service saw it in between. */
  readonly sentAt: number
  readonly receivedAt: number
}

/** The request budget (`--max-requests`) is used up: the rules left are skipped. */
export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted'
}

/** The service did not answer (connection refused, reset, timed out). */
export class NoAnswer extends Error {
  override name = 'NoAnswer'
}

export interface ProberOptions {
  baseUrl: string
  pacer: Pacer
  maxRequests: number
  timeoutMs: number
}

type Query = Record<string, string | readonly string[] | undefined>

const COUNTED_PATHS = new Set(['/v1/exchange_ohlcv', '/v1/aggregated_ohlcv'])

/** Tries of one GET whose connection is closed under it (each counted in the budget). */
const MAX_ATTEMPTS = 3

/** What fetch's cause says when the other side closed a connection the request was sent on. */
const CONNECTION_CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])

/** fetch's own message is "fetch failed": the code is on its cause (or on the first of several). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message
}

function queryString(query: Query): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    for (const v of typeof value === 'string' ? [value] : value) search.append(name, v)
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * The run's only HTTP client: plain `fetch`, not the SDK, so an SDK bug cannot hide a service bug.
 * Paced, counted against the budget, and every answer kept for the rules that look at all of them
 * (ascending order, the OpenAPI document, the `RateLimit-*` headers).
 */
export class Prober {
  readonly answers: Answer[] = []
  #used = 0
  readonly #options: ProberOptions

  constructor(options: ProberOptions) {
    this.#options = options
  }

  get used(): number {
    return this.#used
  }

  /** Answers the service counts: 200s of the candle endpoints (contract.md#order-of-checks). */
  get counted(): number {
    return this.answers.filter((a) => a.status === 200 && COUNTED_PATHS.has(a.path)).length
  }

  get budget(): number {
    return this.#options.maxRequests
  }

  get pacer(): Pacer {
    return this.#options.pacer
  }

  /**
   * `GET path?query`; paced, and one retry after `Retry-After` if a 429 comes anyway. `paced: false`
   * leaves out the pacing by kind (for the rules' short bursts), never the cap of `--rate`.
   */
  async get(path: string, query: Query = {}, key?: KeyChoice, options: { paced?: boolean; method?: string } = {}): Promise<Answer> {
    const counted = COUNTED_PATHS.has(path) && key !== undefined
    if (options.paced !== false) await this.#options.pacer.slot(counted ? 'counted' : 'catalog')
    const answer = await this.#send(options.method ?? 'GET', path, queryString(query), key)
    if (answer.status !== 429 || options.paced === false) return answer
    const wait = Math.min(Math.max(Number(answer.headers['retry-after']) || 1, 1), 5)
    await sleep(wait * 1000)
    return this.#send(options.method ?? 'GET', path, queryString(query), key)
  }

  async #send(method: string, path: string, query: string, key: KeyChoice): Promise<Answer> {
    if (this.#used >= this.#options.maxRequests) throw new BudgetExhausted(`the request budget (--max-requests ${this.#options.maxRequests}) is used up`)
    this.#used++
    const headers: Record<string, string> = { accept: 'application/json' }
    if (key !== undefined) headers[API_KEY_HEADER] = 'literal' in key ? key.literal : key.value
    const request = `${method} ${path}${query} (${describeKey(key)})`
    let res: Response
    let text: string
    // --rate: every request, paced by kind or not, holds a slot of the cap until a second after its answer.
    const release = await this.#options.pacer.cap?.acquire()
    let sentAt = performance.now()
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          res = await fetch(`${this.#options.baseUrl}${path}${query}`, { method, headers, redirect: 'manual', signal: AbortSignal.timeout(this.#options.timeoutMs) })
          text = await res.text()
          break
        } catch (error) {
          // A kept-alive connection the service closed (its idle timeout) just as this request left
          // on it: a GET is sent again, at once, as browsers do. The pool may hold more than one such
          // stale connection after an idle spell (a burst opened several), so up to three tries in
          // all. A service that resets every connection still fails.
          if (attempt < MAX_ATTEMPTS && method === 'GET' && CONNECTION_CLOSED.has(causeOf(error)) && this.#used < this.#options.maxRequests) {
            this.#used++
            sentAt = performance.now()
            continue
          }
          const why = (error as Error).name === 'TimeoutError' ? `no answer within ${this.#options.timeoutMs} ms` : `no answer (${causeOf(error)})`
          throw new NoAnswer(`${request}: ${why}`)
        }
      }
    } finally {
      release?.()
    }
    let body: unknown
    let json = false
    try {
      body = text === '' ? undefined : JSON.parse(text)
      json = text !== ''
    } catch {
      body = undefined
    }
    const answer: Answer = { request, method, path, query, status: res.status, headers: Object.fromEntries(res.headers), body, text, json, sentAt, receivedAt: performance.now() }
    this.answers.push(answer)
    return answer
  }
}
