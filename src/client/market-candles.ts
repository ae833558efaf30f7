import type { CandleEndpointName, EndpointName } from '../contract/index.js'
import type { PageCursor } from '../pagination/page-cursor.js'
import type { Coverage } from '../pagination/concurrent-pages.js'
import { CandleWalk, PageWalk, type WalkOptions, type WalkSource } from '../pagination/walks.js'
import { APIError, APIUserAbortError } from '../errors/index.js'
import type { AggregatedCandle, Asset, Exchange, ExchangeCandle, PairCoverage } from '../schemas/index.js'
import { INTERVAL_MS, isKnownInterval } from '../schemas/values/known-values.js'
import { LIMIT } from '../contract/query-values.js'
import type { ResponseOf } from '../contract/index.js'
import { checkShape } from '../schemas/wire/wire-shape.js'
import { PAGE_CURSOR_SHAPE } from '../schemas/wire/wire-shapes.js'
import { resolveOptions, type ClientOptions } from './client-options.js'
import type { AggregatedOhlcvParams, AggregatedPairsParams, ExchangeOhlcvParams, ExchangePairsParams } from './query/params.js'
import { toWireQuery } from './query/to-wire-query.js'
import { APIPromise } from './api-promise.js'
import { checkRequestOptions, REQUEST_OPTION_KEYS, type RequestOptions } from './options/request-options.js'
import { Transport } from './transport/transport.js'
import { dateTimeMs } from '../contract/parse-datetime.js'
import { parseTimestamp } from '../contract/close-time.js'
import {
  CandleFollow,
  FollowMany,
  checkAnyFollowCursor,
  checkFollowOptions,
  type FollowCursor,
  type FollowManyCursor,
  type FollowOptions,
  type FollowSeries,
  type FollowSource,
} from '../follow/index.js'

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

  /**
   * Follows one exchange series as new candles close: the history from `start` first (without
   * `start`, the latest closed candle), then each new candle once it has closed, each exactly once,
   * ascending, for as long as you iterate. Requests go out just after the next candle is due on the
   * service's clock (learnt from its `Date` header) plus `settleMs`: one request per interval in
   * steady state, through the client's rate limiter and retries. A candle not there yet is asked for
   * again with a bounded backoff. `live.cursor` (plain JSON) resumes it with `resumeFollow`; a closed
   * exchange ends it with `live.ended` saying so; `signal` or `break` stops it.
   * @example
   * const live = client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-01-01' })
   * for await (const candle of live) {
   *   console.log(candle.close_ts, candle.close)
   *   localStorage.setItem('cursor', JSON.stringify(live.cursor))
   * }
   */
  exchangeOhlcvFollow(params: ExchangeOhlcvParams, options?: FollowOptions): CandleFollow<ExchangeCandle> {
    const checked = checkFollowOptions(options, 'exchangeOhlcvFollow')
    return new CandleFollow(this.#followSource(checked), [this.#followCursor('exchange_ohlcv', params)], checked)
  }

  /**
   * Follows one aggregated series as new candles close (see {@link exchangeOhlcvFollow}).
   * @example
   * for await (const candle of client.aggregatedOhlcvFollow({ interval: '1h', base: 'ETH', quote: 'USD' })) {}
   */
  aggregatedOhlcvFollow(params: AggregatedOhlcvParams, options?: FollowOptions): CandleFollow<AggregatedCandle> {
    const checked = checkFollowOptions(options, 'aggregatedOhlcvFollow')
    return new CandleFollow(this.#followSource(checked), [this.#followCursor('aggregated_ohlcv', params)], checked)
  }

  /**
   * Follows many series at once under the account's rate limit (the client's limiter): yields
   * `{ series, candle }`, ascending within each series. Polls that fall due at the same boundary are
   * spread over the limiter, earliest first, `concurrency` in flight. One cursor covers them all.
   * @example
   * const live = client.followMany([
   *   { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' },
   *   { endpoint: 'aggregated_ohlcv', interval: '1m', base: 'ETH', quote: 'USD', start: '2026-01-01' },
   * ])
   * for await (const { series, candle } of live) console.log(series.base, candle.close_ts)
   */
  followMany(series: readonly FollowSeries[], options?: FollowOptions): FollowMany<ExchangeCandle | AggregatedCandle> {
    const checked = checkFollowOptions(options, 'followMany')
    if (!Array.isArray(series) || series.length === 0) throw new TypeError('followMany needs a non-empty array of series')
    const cursors = series.map((s, i) => {
      if (s === null || typeof s !== 'object' || (s.endpoint !== 'exchange_ohlcv' && s.endpoint !== 'aggregated_ohlcv')) {
        throw new TypeError(`followMany series[${i}].endpoint must be 'exchange_ohlcv' or 'aggregated_ohlcv'`)
      }
      const { endpoint, ...params } = s
      return this.#followCursor(endpoint, params)
    })
    return new FollowMany(this.#followSource(checked), uniqueSeries(cursors), checked)
  }

  /**
   * Continues a follow from its cursor (`live.cursor`, possibly stored as JSON): a one-series
   * cursor gives a {@link CandleFollow}, a `followMany` cursor a {@link FollowMany}. No gap, no
   * duplicate: the first candle is the one right after the last one delivered.
   * @example
   * const live = client.resumeFollow(JSON.parse(saved))
   * for await (const candle of live) {}
   */
  resumeFollow<E extends CandleEndpointName>(cursor: FollowCursor & { endpoint: E }, options?: FollowOptions): CandleFollow<CandleOf<E>>
  resumeFollow(cursor: FollowManyCursor, options?: FollowOptions): FollowMany<ExchangeCandle | AggregatedCandle>
  resumeFollow(cursor: FollowCursor | FollowManyCursor, options?: FollowOptions): CandleFollow<ExchangeCandle | AggregatedCandle> | FollowMany<ExchangeCandle | AggregatedCandle> {
    const checked = checkFollowOptions(options, 'resumeFollow')
    const parsed = checkAnyFollowCursor(cursor)
    const cursors = parsed.kind === 'follow' ? [parsed] : parsed.series
    // A cursor is a wire query: checked with the endpoint's own rules before any request.
    // (`start` past `end` is a follow that has ended: its last cursor.)
    for (const c of cursors) toWireQuery(c.endpoint, finishedStartDropped(c.query))
    const source = this.#followSource<ExchangeCandle | AggregatedCandle>(checked)
    return parsed.kind === 'follow' ? new CandleFollow(source, cursors, checked) : new FollowMany(source, uniqueSeries(cursors), checked)
  }

  #followCursor(endpoint: CandleEndpointName, params: ExchangeOhlcvParams | AggregatedOhlcvParams): FollowCursor {
    if (params === null || typeof params !== 'object') throw new TypeError(`${endpoint} follow parameters must be an object`)
    return { version: 1, kind: 'follow', endpoint, query: toWireQuery(endpoint, params) }
  }

  // A follow's requests: the candle pages through the transport (limiter, retries), the time each
  // answer was sent and received with its Date header, and the public exchange list.
  #followSource<C>(options: FollowOptions): FollowSource<C> {
    const { timeout, maxRetries, headers } = options
    const request: RequestOptions = { timeout, maxRetries, headers }
    // One request, with the local times around it and the service's Date header.
    const timed = async (endpoint: CandleEndpointName, query: Record<string, string>, signal: AbortSignal | undefined) => {
      const sent = Date.now()
      const { data, response } = await this.#transport.request(endpoint, query, { ...request, signal })
      return { candles: data as C[], date: response.headers.get('date'), sent, received: Date.now() }
    }
    return {
      fetchLive: timed,
      walk: (endpoint, observe) => ({
        fetchPage: async (query, signal) => {
          const answer = await timed(endpoint, query, signal)
          observe(answer.date, answer.sent, answer.received)
          return answer.candles
        },
        plan: (cursor, signal) => this.#plan(cursor, { ...request, signal }),
      }),
      exchanges: (signal) => this.exchanges({ ...request, signal }),
      // One try, no retry: a late answer tells little of the clock. An error answer has a Date too.
      probe: async (signal) => {
        const sent = Date.now()
        try {
          const { response } = await this.#transport.request('exchanges', {}, { ...request, maxRetries: 0, signal })
          return { date: response.headers.get('date'), sent, received: Date.now() }
        } catch (error) {
          if (!(error instanceof APIError) || error.headers.date === undefined) throw error
          return { date: error.headers.date, sent, received: Date.now() }
        }
      },
    }
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
      if (entry) coverage = { first: parseTimestamp(entry.first_close_ts), last: parseTimestamp(entry.last_close_ts) }
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

function finishedStartDropped(query: Record<string, string>): Record<string, string> {
  const { start, ...rest } = query
  return start !== undefined && query.end !== undefined && dateTimeMs(start) > dateTimeMs(query.end) ? rest : query
}

// Two entries for one series would deliver each of its candles twice.
function uniqueSeries(cursors: FollowCursor[]): FollowCursor[] {
  const seen = new Set<string>()
  for (const c of cursors) {
    const { start: _start, end: _end, limit: _limit, ...identity } = c.query
    const key = JSON.stringify([c.endpoint, Object.entries(identity).sort()])
    if (seen.has(key)) throw new TypeError(`followMany: the series ${c.endpoint} ${JSON.stringify(identity)} is given twice`)
    seen.add(key)
  }
  return cursors
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
