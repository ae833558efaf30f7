import type { CandleEndpointName } from '../contract/index.js'
import type { AggregatedOhlcvParams, ExchangeOhlcvParams } from '../client/query/params.js'
import type { RequestOptions } from '../client/options/request-options.js'

/**
 * One series to follow, as `followMany` takes it: the endpoint and that endpoint's parameters.
 * `start` catches up the history from there first; without it the follow begins with the latest
 * closed candle. `end` ends the follow once every candle up to it has been delivered. `limit` is
 * the page size of each request.
 * @example
 * const series: FollowSeries = { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' }
 */
export type FollowSeries =
  | ({ endpoint: 'exchange_ohlcv' } & ExchangeOhlcvParams)
  | ({ endpoint: 'aggregated_ohlcv' } & AggregatedOhlcvParams)

/**
 * Which series a candle or a page belongs to: the endpoint and the series' identity (no `start`,
 * `end` or `limit`), the same object for every candle of the series, stable across resumes.
 */
export interface FollowSeriesId {
  endpoint: CandleEndpointName
  /** Set for `exchange_ohlcv`. */
  exchange?: string
  interval: string
  base: string
  quote: string
  /** Set for `aggregated_ohlcv` when the series was given one. */
  method?: string
}

/**
 * Options of a follow: the request options, applied to each of its requests, and its own.
 * @example
 * client.exchangeOhlcvFollow(params, { signal: controller.signal, settleMs: 3000 })
 */
export interface FollowOptions extends RequestOptions {
  /** Stops the follow: during waits, between pages and in flight; iterating it then rejects with `APIUserAbortError`. */
  signal?: AbortSignal
  /**
   * How long after a candle's close (on the service's clock) its request goes out. Without it the
   * follow learns each series' publish delay from its own polls (the last poll that found no
   * candle, the first that found it) and asks just after it: a candle arrives about 100 ms plus a
   * round trip after it becomes available, at one request per series per interval in steady
   * state. Given, it is fixed, as before 0.2. A candle not there yet is asked for again with a
   * backoff inside its interval.
   * @default learnt per series
   * @example
   * client.exchangeOhlcvFollow(params, { settleMs: 2000 }) // always 2 s after each close
   */
  settleMs?: number
  /**
   * How long an outage may last before the follow gives up: connection failures, timeouts, 5xx and
   * 429s that the client's own retries did not get through. Meanwhile the follow tries again with a
   * capped exponential backoff (1 s, 2 s, 4 s... up to 60 s, with jitter) and goes on with no gap
   * and no duplicate once the service answers. Past it, iterating rejects with the last error.
   * `0` gives up at the first failure. Errors that waiting cannot fix (401, 403, 404, 422, a body
   * that fails validation, an abort) end the follow at once whatever this says. Service time.
   * @default Infinity
   * @example
   * client.followMany(series, { maxOutageMs: 15 * 60_000 }) // give up after 15 minutes down
   */
  maxOutageMs?: number
  /**
   * Called when the follow's state changes: its status (`catching-up`, `live`, `retrying`,
   * `ended`), and at each failed try of an outage. Called synchronously; an error it throws ends the
   * follow with that error. `live.state` reads the same at any time.
   * @example
   * client.exchangeOhlcvFollow(params, {
   *   onStateChange: (s) => s.status === 'retrying' && console.warn(`down for ${s.outageMs} ms: ${s.lastError?.message}`),
   * })
   */
  onStateChange?: (state: FollowState) => void
  /**
   * The service's clock in epoch ms. By default the follow learns it from the `Date` header of the
   * service's answers, its reading and its speed (so a machine whose clock is off, or a test
   * service whose clock runs fast, still polls at the right moment); give it to read a clock you
   * hold, e.g. `() => mock.service.clock.now()` in process.
   * @default estimated from the `Date` headers
   */
  now?: () => number
  /**
   * How fast the service's clock runs, when you know it: service ms per wall ms (60 for a test
   * service started with `serve --clock-rate 60`). Not needed: the follow learns the speed from
   * the `Date` headers within its first second (a probe 300 ms after the first answer) and picks
   * up a change (`POST /_mock/clock {"rate": N}`) from the next answer and the probe after it (an
   * answer that fits only another speed is first taken for a move of the clock); given, it starts from it,
   * and a move of the clock in the follow's first second is taken for one, not for a new speed.
   * Not with `now`, whose speed the follow measures.
   * @default 1, then learnt from the `Date` headers
   * @example
   * client.exchangeOhlcvFollow(params, { clockRate: 60 })
   */
  clockRate?: number
  /**
   * Requests in flight at once: history windows of a series catching up, and polls of different
   * series falling due together. Every request goes through the client's rate limiter.
   * @default 8
   */
  concurrency?: number
}

/** Why the follow of one series ended. */
export interface FollowEnd {
  series: FollowSeriesId
  /** `exchange-closed`: the exchange has a `closing_date` and its last candle was delivered; `end`: the follow's `end` was reached. */
  reason: 'exchange-closed' | 'end'
  /** A sentence that says why, naming the series. */
  message: string
}

/**
 * One request's worth of a follow: the page as the service returned it (ascending, possibly empty
 * when the due candle was not there yet), with what an exporter needs to write it and report.
 */
export interface FollowPage<C> {
  series: FollowSeriesId
  /** New candles, ascending by `close_ts`, each delivered once. */
  candles: C[]
  /** `history` while catching up from `start`; `live` once at the moving edge. */
  phase: 'history' | 'live'
  /** The service's time when the page arrived (epoch ms, as the follow knows it). */
  serviceNow: number
  /** Service time since the close of the series' newest delivered candle, in ms; undefined before the first. */
  lagMs: number | undefined
  /** Set on the last page of a series whose follow has ended. */
  ended?: FollowEnd
}

/**
 * Where the follow of one series goes on: plain JSON, safe to store and to send across processes.
 * `query` is the wire query of its next request (`start` just after the last candle delivered).
 * `client.resumeFollow(cursor)` continues with no gap and no duplicate.
 */
export interface FollowCursor {
  version: 1
  kind: 'follow'
  endpoint: CandleEndpointName
  query: Record<string, string>
}

/** Where a `followMany` goes on: one {@link FollowCursor} per series, in the order given. */
export interface FollowManyCursor {
  version: 1
  kind: 'follow-many'
  series: FollowCursor[]
}

/** What `followMany` yields: a candle and the series it belongs to. */
export interface FollowEvent<C> {
  series: FollowSeriesId
  candle: C
}

/**
 * What a follow is doing: `catching-up` (the history from `start`, or a backlog after an outage),
 * `live` (at the moving edge), `retrying` (riding out an outage), `ended` (iteration is over: every
 * series ended, an error, an abort, or a `break`).
 */
export type FollowStatus = 'catching-up' | 'live' | 'retrying' | 'ended'

/**
 * A follow's state, as `live.state` and `onStateChange` give it. Times are on the service's clock
 * as the follow knows it (`live.serviceNow()`; the wall clock's pace in production).
 * @example
 * const { status, lagMs, outageMs, lastError } = live.state
 */
export interface FollowState {
  status: FollowStatus
  /** When this status began (epoch ms). */
  since: number
  /** Time since the close of the newest candle delivered (followMany: the largest over the series still followed), in ms; undefined before the first. */
  lagMs: number | undefined
  /** While `retrying`: how long the outage has lasted, from its first failure, in ms. */
  outageMs?: number
  /** While `retrying`: failed tries in this outage, each after the client's own retries. */
  attempts?: number
  /**
   * While `retrying`, the last failure; once `ended` by an error, that error. The SDK's typed errors
   * (`APIConnectionError`, `InternalServerError`, `RateLimitError`, ...): never the API key.
   */
  lastError?: Error
}

/** The state of one series of a follow: `live.state` of a one-series follow, `live.seriesStates()` of `followMany`. */
export interface FollowSeriesState extends FollowState {
  series: FollowSeriesId
  /** How long after a close this series asks for its candle (ms): the `settleMs` option, or what it has learnt of the publish delay plus a small margin. */
  settleMs: number
  /** Why the series ended (its exchange closed, or `end` was reached), once it has. */
  ended?: FollowEnd
}
