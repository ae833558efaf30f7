import { checkRequestOptions, REQUEST_OPTION_KEYS } from '../client/options/request-options.js'
import { followPages, type FollowTime } from './follow-engine.js'
import type { FollowSource } from './follow-source.js'
import { StateBoard } from './follow-state.js'
import type { FollowCursor, FollowEnd, FollowEvent, FollowManyCursor, FollowOptions, FollowPage, FollowSeriesState, FollowState } from './follow-types.js'
import { SeriesPosition } from './series-position.js'
import { MAX_CLOCK_SPEED } from './clock-region.js'
import { DateClock } from './date-clock.js'

/** The options a follow takes: the request options and its own. */
export const FOLLOW_OPTION_KEYS = [...REQUEST_OPTION_KEYS, 'settleMs', 'now', 'clockRate', 'concurrency', 'maxOutageMs', 'onStateChange'] as const

/** Checks a follow's options; throws a clear error for an unknown or bad one. */
export function checkFollowOptions(options: FollowOptions | undefined, where: string): FollowOptions {
  const checked = checkRequestOptions(options, where, FOLLOW_OPTION_KEYS) as FollowOptions
  const { settleMs, now, clockRate, concurrency, maxOutageMs, onStateChange } = checked
  if (settleMs !== undefined && !(Number.isInteger(settleMs) && settleMs >= 0 && settleMs <= 3_600_000)) {
    throw new RangeError(`settleMs must be an integer number of milliseconds from 0 to 3600000, got ${String(settleMs)}`)
  }
  if (now !== undefined && typeof now !== 'function') throw new TypeError('now must be a function returning epoch milliseconds')
  if (clockRate !== undefined && !(typeof clockRate === 'number' && Number.isFinite(clockRate) && clockRate >= 0 && clockRate <= MAX_CLOCK_SPEED)) {
    throw new RangeError(`clockRate must be a number from 0 to ${MAX_CLOCK_SPEED} (service ms per wall ms), got ${String(clockRate)}`)
  }
  if (clockRate !== undefined && now !== undefined) throw new TypeError('give now or clockRate, not both: with now the follow measures how fast that clock runs')
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64)) {
    throw new RangeError(`concurrency must be an integer from 1 to 64, got ${String(concurrency)}`)
  }
  if (maxOutageMs !== undefined && !(typeof maxOutageMs === 'number' && maxOutageMs >= 0)) {
    throw new RangeError(`maxOutageMs must be a number >= 0 (ms, or Infinity), got ${String(maxOutageMs)}`)
  }
  if (onStateChange !== undefined && typeof onStateChange !== 'function') throw new TypeError('onStateChange must be a function')
  return checked
}

/** The service's time for one follow: the `now` option, or learnt from `Date` headers. */
function followTime(options: FollowOptions): FollowTime & { shift(): number } {
  const given = options.now
  if (given) {
    const now = () => {
      const ms = given()
      if (!Number.isFinite(ms)) throw new TypeError(`the follow's now() must return epoch milliseconds, got ${String(ms)}`)
      return ms
    }
    return { now, observe() {}, shift: () => 0 }
  }
  const clock = new DateClock(options.clockRate)
  return {
    now: () => clock.now(),
    rate: () => clock.speed,
    observe: (date, sent, received) => clock.observe(date, sent, received),
    shift: () => clock.shift,
    restarts: () => clock.restarts,
    probeAt: () => clock.probeAt(),
    probing: () => clock.probing(),
  }
}

/** What both follows share: their series, the service's time, the page stream. */
abstract class Follow<C extends { close_ts: string }, T> implements AsyncIterable<T> {
  /** @internal */
  protected readonly positions: SeriesPosition[]
  readonly #source: FollowSource<C>
  /** @internal */
  protected readonly options: FollowOptions
  readonly #time: FollowTime & { shift(): number }
  /** @internal */
  protected readonly board: StateBoard

  /** @internal Built by the client's follow methods. */
  constructor(source: FollowSource<C>, cursors: FollowCursor[], options: FollowOptions) {
    this.#source = source
    this.positions = cursors.map((c) => new SeriesPosition(c))
    this.options = options
    this.#time = followTime(options)
    this.board = new StateBoard(this.positions, this.#time.now(), options.settleMs, options.onStateChange, () => this.#time.shift())
  }

  /** The service's time as the follow knows it (epoch ms): the `now` option, or learnt from the `Date` headers. */
  serviceNow(): number {
    return this.#time.now()
  }

  /**
   * The follow page by page, one per request that brought candles (and a last one per series that
   * ends), with the series, the phase and the lag: for writers that store a page at a time. Each
   * page's candles count as delivered when it is handed out; `cursor` then points after them.
   * @example
   * for await (const page of live.pages()) {
   *   await store(page.candles, live.cursor) // in one transaction
   *   console.log(`${page.series.base}/${page.series.quote}: lag ${page.lagMs} ms`)
   * }
   */
  async *pages(): AsyncGenerator<FollowPage<C>, undefined> {
    for await (const page of followPages(this.#source, this.board, this.#time, this.options)) {
      this.#deliver(page)
      yield page
    }
    return undefined
  }

  #deliver(page: FollowPage<C>): void {
    const position = this.positions.find((p) => p.id === page.series)!
    if (page.candles.length > 0) position.delivered = page.candles.at(-1)!.close_ts
  }

  /** @internal Candle by candle: the cursor moves after each one, so a `break` mid-page loses and repeats nothing. */
  protected async *events(): AsyncGenerator<{ position: SeriesPosition; candle: C }, undefined> {
    for await (const page of followPages(this.#source, this.board, this.#time, this.options)) {
      const position = this.positions.find((p) => p.id === page.series)!
      for (const candle of page.candles) {
        position.delivered = candle.close_ts
        yield { position, candle }
      }
    }
    return undefined
  }

  abstract [Symbol.asyncIterator](): AsyncGenerator<T, undefined>
}

/**
 * The follow of one series: an async iterable of candles, ascending by `close_ts`, each once: the
 * history from `start` first, then each new candle once it has closed, for as long as you iterate.
 * `cursor` (plain JSON) always says where it goes on: `client.resumeFollow(cursor)` continues with
 * no gap and no duplicate, even in another process. Iterating ends only when the series does:
 * `ended` then says why (its exchange closed, or the follow's `end` was reached).
 *
 * @example
 * const live = client.exchangeOhlcvFollow({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-01-01' })
 * for await (const candle of live) {
 *   await save(candle, live.cursor)
 * }
 */
export class CandleFollow<C extends { close_ts: string }> extends Follow<C, C> {
  /** Where the follow goes on, right after the last candle delivered. */
  get cursor(): FollowCursor {
    return this.positions[0]!.cursor()
  }

  /** Why the follow ended; undefined while it goes on. */
  get ended(): FollowEnd | undefined {
    return this.positions[0]!.ended
  }

  /**
   * What the follow is doing now, read without a request: status, lag, and while an outage lasts
   * its length and last error; also the settle delay in use. `onStateChange` is told each change.
   * @example
   * if (live.state.status === 'retrying') console.warn(`service down for ${live.state.outageMs} ms`)
   */
  get state(): FollowSeriesState {
    const now = this.serviceNow()
    const series = this.board.seriesState(this.board.series[0]!, now)
    return { ...series, ...this.board.state(now), lagMs: series.lagMs }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<C, undefined> {
    for await (const { candle } of this.events()) yield candle
    return undefined
  }
}

/**
 * The follow of many series under one rate limit: an async iterable of `{ series, candle }`,
 * ascending by `close_ts` within each series. Polls falling due together are spread over the
 * client's limiter, earliest due first; one cursor covers every series.
 *
 * @example
 * const live = client.followMany([
 *   { endpoint: 'exchange_ohlcv', exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD' },
 *   { endpoint: 'aggregated_ohlcv', interval: '1m', base: 'ETH', quote: 'USD' },
 * ])
 * for await (const { series, candle } of live) console.log(series.base, candle.close_ts, candle.close)
 */
export class FollowMany<C extends { close_ts: string }> extends Follow<C, FollowEvent<C>> {
  /** Where the follow goes on: one cursor per series, in the order given. */
  get cursor(): FollowManyCursor {
    return { version: 1, kind: 'follow-many', series: this.positions.map((p) => p.cursor()) }
  }

  /** The series whose follow has ended, and why. */
  get ended(): FollowEnd[] {
    return this.positions.flatMap((p) => (p.ended ? [p.ended] : []))
  }

  /**
   * What the follow is doing now, over all its series: `retrying` while any series rides out an
   * outage, `catching-up` while any catches up, else `live`; the lag of the series furthest behind.
   * `onStateChange` is told each change. Reading it costs one pass over the series.
   * @example
   * setInterval(() => console.log(live.state.status, live.state.lagMs), 10_000)
   */
  get state(): FollowState {
    return this.board.state(this.serviceNow())
  }

  /**
   * Each series' state, in the order given: its status, lag, outage, settle delay and end. Built on
   * each call (one object per series).
   * @example
   * const behind = live.seriesStates().filter((s) => (s.lagMs ?? 0) > 120_000)
   */
  seriesStates(): FollowSeriesState[] {
    const now = this.serviceNow()
    return this.board.series.map((s) => this.board.seriesState(s, now))
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<FollowEvent<C>, undefined> {
    for await (const { position, candle } of this.events()) yield { series: position.id, candle }
    return undefined
  }
}
