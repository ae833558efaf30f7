import type { CandleEndpointName, EndpointName } from '../contract/index.js'
import type { PageCursor } from '../pagination/page-cursor.js'
import type { Coverage } from '../pagination/concurrent-pages.js'
import { CandleWalk, PageWalk, type WalkOptions, type WalkSource } from '../pagination/walks.js'
import { APIUserAbortError } from '../errors/index.js'
import type { AggregatedCandle, Asset, Exchange, ExchangeCandle, PairCoverage } from '../schemas/index.js'
import { INTERVAL_MS, isKnownInterval } from '../schemas/known-values.js'
import { LIMIT } from '../contract/query-values.js'
import type { ResponseOf } from '../contract/index.js'
import { checkShape } from '../schemas/wire-shape.js'
import { PAGE_CURSOR_SHAPE } from '../schemas/wire-shapes.js'
import { resolveOptions, type ClientOptions } from './client-options.js'
import type { AggregatedOhlcvParams, AggregatedPairsParams, ExchangeOhlcvParams, ExchangePairsParams } from './params.js'
import { toWireQuery } from './to-wire-query.js'
import { APIPromise } from './api-promise.js'
import { checkRequestOptions, REQUEST_OPTION_KEYS, type RequestOptions } from './request-options.js'
import { Transport } from './transport.js'

/** The page size of walks when the query gives no `limit`: the service's maximum, fewest requests. */
export const WALK_PAGE_SIZE: number = LIMIT.max

/** The candle type of a candle endpoint. */
export type CandleOf<E extends CandleEndpointName> = E extends 'exchange_ohlcv' ? ExchangeCandle : AggregatedCandle

/**
 * A client of the market candle service. Create it with {@link createClient}.
 *
 * @example
 * const client = createClient({ apiKey: process.env.MARKET_CANDLES_API_KEY })
 * const latest = await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 24 })
 */
export class MarketCandles {
  readonly #transport: Transport

  constructor(options: ClientOptions = {}) {
    this.#transport = new Transport(resolveOptions(options))
  }

  #get<E extends EndpointName>(method: string, endpoint: E, params: object | undefined, options: RequestOptions | undefined): APIPromise<ResponseOf<E>> {
    // async, so a bad parameter or option is a rejection like every other failure, never a synchronous throw
    const result = (async () => this.#transport.request(endpoint, toWireQuery(endpoint, params), checkRequestOptions(options, method)))()
    return new APIPromise(result)
  }

  /**
   * Every exchange, ordered by name. Public: no key is sent.
   * @example
   * const names = (await client.exchanges()).map((e) => e.name)
   */
  exchanges(options?: RequestOptions): APIPromise<Exchange[]> {
    return this.#get('exchanges', 'exchanges', undefined, options)
  }

  /**
   * Every asset, ordered by ticker; `ticker` is the value to use as `base` / `quote`. Public.
   * @example
   * const fiat = (await client.assets()).filter((a) => a.asset_type === 'FIAT')
   */
  assets(options?: RequestOptions): APIPromise<Asset[]> {
    return this.#get('assets', 'assets', undefined, options)
  }

  /**
   * Every pair with at least one candle on `exchange` at `interval`, with its coverage. Public.
   * Throws `NotFoundError` for an unknown exchange or interval.
   * @example
   * const pairs = await client.exchangePairs({ exchange: 'bitstamp', interval: '1d' })
   */
  exchangePairs(params: ExchangePairsParams, options?: RequestOptions): APIPromise<PairCoverage[]> {
    return this.#get('exchangePairs', 'exchange_pairs', params, options)
  }

  /**
   * Every pair with at least one aggregated candle at `interval`; without `method`, all methods. Public.
   * @example
   * const pairs = await client.aggregatedPairs({ interval: '1h' })
   */
  aggregatedPairs(params: AggregatedPairsParams, options?: RequestOptions): APIPromise<PairCoverage[]> {
    return this.#get('aggregatedPairs', 'aggregated_pairs', params, options)
  }

  /**
   * One page of one exchange's raw candles, ascending by `close_ts`. With `start`: the first `limit`
   * candles from `start`. Without: the latest `limit` up to `end`. To page, use
   * {@link exchangeOhlcvCandles} or {@link exchangeOhlcvPages}.
   * @example
   * const day = await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', start: new Date('2025-01-01'), limit: 24 })
   */
  exchangeOhlcv(params: ExchangeOhlcvParams, options?: RequestOptions): APIPromise<ExchangeCandle[]> {
    return this.#get('exchangeOhlcv', 'exchange_ohlcv', params, options)
  }

  /**
   * One page of the cross-exchange combined series (`method` defaults to `omm_vwap_v1`).
   * @example
   * const latest = await client.aggregatedOhlcv({ interval: '1m', base: 'ETH', quote: 'USD', limit: 60 })
   */
  aggregatedOhlcv(params: AggregatedOhlcvParams, options?: RequestOptions): APIPromise<AggregatedCandle[]> {
    return this.#get('aggregatedOhlcv', 'aggregated_ohlcv', params, options)
  }

  /**
   * Every candle of a range, paged for you. With `start`: ascending from `start` to `end` (or the
   * latest). Without `start`: descending from `end` (or the latest) back to the first candle, newest
   * first. Pages hold `limit` candles (default 1000).
   * @example
   * for await (const candle of client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', start: '2024-01-01' })) {
   *   console.log(candle.close_ts, candle.close)
   * }
   */
  exchangeOhlcvCandles(params: ExchangeOhlcvParams, options?: WalkOptions): CandleWalk<ExchangeCandle> {
    return new CandleWalk(this.#pageFetcher('exchange_ohlcv', walkOptions('exchangeOhlcvCandles', options)), this.#startCursor('exchange_ohlcv', params), options)
  }

  /**
   * The pages of a range (see {@link exchangeOhlcvCandles}); each page has a `cursor` to resume from.
   * @example
   * for await (const page of client.exchangeOhlcvPages({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2024-01-01' })) {
   *   await save(page.candles)
   *   await saveCursor(page.cursor) // plain JSON
   * }
   */
  exchangeOhlcvPages(params: ExchangeOhlcvParams, options?: WalkOptions): PageWalk<ExchangeCandle> {
    return new PageWalk(this.#pageFetcher('exchange_ohlcv', walkOptions('exchangeOhlcvPages', options)), this.#startCursor('exchange_ohlcv', params), options)
  }

  /**
   * Every aggregated candle of a range, paged for you (see {@link exchangeOhlcvCandles}).
   * @example
   * for await (const candle of client.aggregatedOhlcvCandles({ interval: '1d', base: 'BTC', quote: 'USD', start: '2020-01-01' })) {}
   */
  aggregatedOhlcvCandles(params: AggregatedOhlcvParams, options?: WalkOptions): CandleWalk<AggregatedCandle> {
    return new CandleWalk(this.#pageFetcher('aggregated_ohlcv', walkOptions('aggregatedOhlcvCandles', options)), this.#startCursor('aggregated_ohlcv', params), options)
  }

  /**
   * The pages of an aggregated range (see {@link exchangeOhlcvPages}).
   * @example
   * for await (const page of client.aggregatedOhlcvPages({ interval: '1h', base: 'ETH', quote: 'USD' }, { maxItems: 5000 })) {}
   */
  aggregatedOhlcvPages(params: AggregatedOhlcvParams, options?: WalkOptions): PageWalk<AggregatedCandle> {
    return new PageWalk(this.#pageFetcher('aggregated_ohlcv', walkOptions('aggregatedOhlcvPages', options)), this.#startCursor('aggregated_ohlcv', params), options)
  }

  /**
   * Continues a walk from a cursor (from `walk.cursor` or `page.cursor`, possibly stored as JSON),
   * candle by candle, with no gap and no duplicate.
   * @example
   * const walk = client.resumeCandles(JSON.parse(saved))
   * for await (const candle of walk) {}
   */
  resumeCandles<E extends CandleEndpointName>(cursor: PageCursor & { endpoint: E }, options?: WalkOptions): CandleWalk<CandleOf<E>> {
    const checked = checkCursor(cursor)
    return new CandleWalk(this.#pageFetcher(checked.endpoint as E, walkOptions('resumeCandles', options)), checked, options)
  }

  /**
   * Continues a walk from a cursor, page by page.
   * @example
   * for await (const page of client.resumePages(cursor)) {}
   */
  resumePages<E extends CandleEndpointName>(cursor: PageCursor & { endpoint: E }, options?: WalkOptions): PageWalk<CandleOf<E>> {
    const checked = checkCursor(cursor)
    return new PageWalk(this.#pageFetcher(checked.endpoint as E, walkOptions('resumePages', options)), checked, options)
  }

  #startCursor(endpoint: CandleEndpointName, params: ExchangeOhlcvParams | AggregatedOhlcvParams): PageCursor {
    const query = toWireQuery(endpoint, { ...params, limit: params.limit ?? WALK_PAGE_SIZE })
    return { version: 1, endpoint, direction: query.start === undefined ? 'backward' : 'forward', query }
  }

  // Each request of a walk gets the walk's request options; the signal is the walk's own (it may be
  // a concurrent walk's inner one, which also stops windows fetched ahead).
  #pageFetcher<E extends CandleEndpointName>(endpoint: E, request: RequestOptions): WalkSource<CandleOf<E>> {
    return {
      fetchPage: (query, signal) => this.#transport.request(endpoint, query, { ...request, signal }).then((r) => r.data as CandleOf<E>[]),
      plan: (cursor, signal) => this.#plan(cursor, { ...request, signal }),
    }
  }

  // How to split a forward range: the interval's length and the pair's coverage from the public
  // pairs catalog (free: never counted, never rate limited), so windows stay inside real data.
  async #plan(cursor: PageCursor, request: RequestOptions): Promise<{ intervalMs: number; coverage: Coverage | undefined } | undefined> {
    const { interval, exchange, base, quote, method } = cursor.query
    if (!isKnownInterval(interval)) return undefined
    let coverage: Coverage | undefined
    try {
      const pairs =
        cursor.endpoint === 'exchange_ohlcv'
          ? await this.exchangePairs({ exchange: exchange!, interval }, request)
          : await this.aggregatedPairs({ interval, method }, request)
      const entry = pairs.find((p) => p.base === base && p.quote === quote)
      if (entry) coverage = { first: Date.parse(entry.first_close_ts), last: Date.parse(entry.last_close_ts) }
    } catch (error) {
      if (error instanceof APIUserAbortError) throw error
      // Without coverage the walk pages sequentially, and the candle request reports any real error.
    }
    return { intervalMs: INTERVAL_MS[interval], coverage }
  }
}

/** The options a walk takes: the request options and its own. */
const WALK_OPTION_KEYS = [...REQUEST_OPTION_KEYS, 'maxItems', 'concurrency'] as const

// Checks a walk's options (unknown keys included) and keeps the ones each of its requests takes.
function walkOptions(method: string, options: WalkOptions | undefined): RequestOptions {
  const { timeout, maxRetries, headers } = checkRequestOptions(options, method, WALK_OPTION_KEYS) as WalkOptions
  return { timeout, maxRetries, headers }
}

function checkCursor(cursor: unknown): PageCursor {
  // pageCursorSchema as plain data: no zod in the client bundle (same verdicts and wording).
  const checked = checkShape(PAGE_CURSOR_SHAPE, cursor, 'cursor')
  if (!checked.ok) throw new TypeError(`Not a page cursor: ${checked.problems[0]}`)
  const parsed = { data: checked.value as PageCursor }
  // A cursor is a wire query: check it with the endpoint's own rules before any request.
  toWireQuery(parsed.data.endpoint, parsed.data.query)
  if (parsed.data.query.limit === undefined) throw new TypeError('Not a page cursor: cursor.query.limit is missing')
  return parsed.data
}

/**
 * Creates a client.
 *
 * @example
 * import { createClient } from 'market-candles'
 * const client = createClient({ apiKey: 'demo-pro-key', baseUrl: 'http://127.0.0.1:4010' })
 * const assets = await client.assets()
 */
export function createClient(options: ClientOptions = {}): MarketCandles {
  return new MarketCandles(options)
}
