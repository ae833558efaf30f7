import type { CandleEndpointName } from '../../src/contract/index.js'
import { instantOf } from './instant.js'
import type { KeyChoice } from './keys.js'
import type { Answer, Prober } from './prober.js'
import { Skip } from './skip.js'

/** A pair coverage entry of the catalog. */
export interface Coverage {
  base: string
  quote: string
  first_close_ts: string
  last_close_ts: string
}

/** One series the candle rules page through. */
export interface SeriesRef {
  endpoint: CandleEndpointName
  /** The query naming the series: exchange (exchange_ohlcv only), interval, base, quote. */
  params: Record<string, string>
  coverage: Coverage
}

/** A page of candles, sorted by close_ts whatever order it came in (the order has its own rule). */
export interface Page {
  answer: Answer
  /** close_ts in epoch ms, ascending. */
  closes: number[]
  /** The candles as JSON text, in the same order. */
  candles: string[]
}

export const HOUR = 3_600_000
const ms = instantOf
/** An instant as the service writes it: whole seconds without `.000`, milliseconds when there are some. */
export const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z')

/** A candle array's close_ts, sorted; `undefined` when the body is not an array of candles. */
function pageOf(answer: Answer): Page | undefined {
  if (answer.status !== 200 || !Array.isArray(answer.body)) return undefined
  const rows = (answer.body as Array<{ close_ts?: unknown }>).map((c) => ({ t: ms(c?.close_ts), text: JSON.stringify(c) }))
  rows.sort((a, b) => a.t - b.t)
  return { answer, closes: rows.map((r) => r.t), candles: rows.map((r) => r.text) }
}

/**
 * What the rules learn about the deployment, fetched once and shared: the catalog (public, no key)
 * and the series the candle rules use. Everything here is derived from the deployment's own
 * answers, so the command works on any dataset.
 */
export class Facts {
  readonly #prober: Prober
  readonly #key: KeyChoice
  readonly #memo = new Map<string, Promise<unknown>>()

  constructor(prober: Prober, key: KeyChoice) {
    this.#prober = prober
    this.#key = key
  }

  #once<T>(name: string, load: () => Promise<T>): Promise<T> {
    let value = this.#memo.get(name) as Promise<T> | undefined
    if (!value) {
      value = load()
      this.#memo.set(name, value)
    }
    return value
  }

  /** The body of a public catalog call, or a skip when it is not a 200 array. */
  async catalog<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    return this.#once(`catalog ${path} ${JSON.stringify(query)}`, async () => {
      const answer = await this.#prober.get(path, query)
      if (answer.status !== 200 || !Array.isArray(answer.body)) throw new Skip(`${answer.request} answered ${answer.status}, not a 200 array`)
      return answer.body as T[]
    })
  }

  /** The exchanges; a `closing_date` left out reads as null (D13). */
  async exchanges(): Promise<Array<{ name: string; closing_date: string | null }>> {
    return this.catalog('/v1/exchanges')
  }

  /**
   * Up to four exchanges for the rules that look at each: the open ones first, then the closed
   * ones, so a catalog of hundreds costs what a catalog of four does.
   */
  async sampleExchanges(): Promise<Array<{ name: string; closing_date: string | null }>> {
    const all = await this.exchanges()
    const open = all.filter((e) => e.closing_date == null)
    const closed = all.filter((e) => e.closing_date != null)
    return [...open.slice(0, closed.length > 0 ? 3 : 4), ...closed].slice(0, 4)
  }

  /** The catalog's intervals are not listed anywhere: these are the contract's. */
  readonly intervals = ['1m', '1h', '1d'] as const

  /** An estimate of the service's "now": the newest `last_close_ts` of any 1m series (public calls). */
  async now(): Promise<number> {
    return this.#once('now', async () => {
      let newest = -Infinity
      for (const exchange of await this.sampleExchanges()) {
        for (const interval of ['1m', '1h']) {
          const pairs = await this.catalog<Coverage>('/v1/exchange_pairs', { exchange: exchange.name, interval })
          for (const p of pairs) newest = Math.max(newest, ms(p.last_close_ts))
          if (pairs.length > 0) break
        }
      }
      if (!Number.isFinite(newest)) throw new Skip('the catalog lists no pair with candles')
      return newest
    })
  }

  /**
   * The series the candle rules page through at `interval`: on `exchange_ohlcv`, the open exchange's
   * pair with the newest data (BTC/USD when it has it); on `aggregated_ohlcv`, the same pair if the
   * aggregate has it.
   */
  async series(endpoint: CandleEndpointName, interval = '1h'): Promise<SeriesRef> {
    return this.#once(`series ${endpoint} ${interval}`, async (): Promise<SeriesRef> => {
      const pick = (pairs: Coverage[]) =>
        pairs.find((p) => p.base === 'BTC' && p.quote === 'USD') ?? [...pairs].sort((a, b) => ms(b.last_close_ts) - ms(a.last_close_ts))[0]
      if (endpoint === 'exchange_ohlcv') {
        for (const exchange of await this.sampleExchanges()) {
          const pair = pick(await this.catalog<Coverage>('/v1/exchange_pairs', { exchange: exchange.name, interval }))
          if (pair) return { endpoint, params: { exchange: exchange.name, interval, base: pair.base, quote: pair.quote }, coverage: pair }
        }
        throw new Skip(`no exchange lists a pair at ${interval}`)
      }
      const ex = await this.series('exchange_ohlcv', interval).catch(() => undefined)
      const pairs = await this.catalog<Coverage>('/v1/aggregated_pairs', { interval })
      const pair = pairs.find((p) => p.base === ex?.params.base && p.quote === ex?.params.quote) ?? pick(pairs)
      if (!pair) throw new Skip(`aggregated_pairs lists no pair at ${interval}`)
      return { endpoint, params: { interval, base: pair.base, quote: pair.quote }, coverage: pair }
    })
  }

  /**
   * A page of the series with the main key; skips the rule when there is no key or the key's plan
   * does not reach it (a 403), and fails loudly through the caller's checks otherwise.
   */
  async page(series: SeriesRef, query: Record<string, string | undefined>, key: KeyChoice = this.#key): Promise<Page & { status: number }> {
    if (key === undefined) throw new Skip('no API key: give --api-key-file (or MARKET_CANDLES_API_KEY)')
    const answer = await this.#prober.get(`/v1/${series.endpoint}`, { ...series.params, ...query }, key)
    if (answer.status === 403) throw new Skip(`the key's plan does not reach this (${answer.request} answered 403)`)
    const page = pageOf(answer)
    return { status: answer.status, ...(page ?? { answer, closes: [], candles: [] }) }
  }

  /**
   * Thirty consecutive candles of the series about three days before its last one (1h), the sample
   * the paging rules take their instants from. Skips when the series is too short there.
   */
  async window(endpoint: CandleEndpointName): Promise<number[]> {
    return this.#once(`window ${endpoint}`, async () => {
      const series = await this.series(endpoint)
      const from = ms(series.coverage.last_close_ts) - 72 * HOUR - HOUR / 2
      const page = await this.page(series, { start: iso(from), limit: '30' })
      if (page.status !== 200) throw new Skip(`the sample page answered ${page.status}: ${page.answer.request}`)
      if (page.closes.length < 20) throw new Skip(`the series ${JSON.stringify(series.params)} has fewer than 20 candles in the 30 hours from ${iso(from)}`)
      return page.closes
    })
  }
}

