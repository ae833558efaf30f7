import type { RequestOptions } from '../client/options/request-options.js'
import { throwIfAborted } from '../internal/abort.js'
import { checkKnownKeys } from '../internal/known-keys.js'
import { concurrentPages, type Coverage } from './concurrent-pages.js'
import { cursorAfter, type CandlePage, type PageCursor } from './page-cursor.js'
import { sequentialPages, type FetchPage } from './sequential-pages.js'
import { GapTracker, type GapReport } from './gap-tracker.js'
import { INTERVAL_MS, isKnownInterval } from '../schemas/values/known-values.js'
import { dateTimeMs } from '../contract/parse-datetime.js'

/** Windows in flight in a forward walk with a known range, unless the walk says otherwise. */
export const DEFAULT_CONCURRENCY = 8

/** Where a walk gets its pages, and what it knows to split a forward range into windows. */
export interface WalkSource<C> {
  fetchPage: FetchPage<C>
  /**
   * The interval length and the series' coverage, for an ordered concurrent forward walk; undefined
   * when the range cannot be split (an interval this package does not know), so the walk runs
   * sequentially.
   */
  plan?(cursor: PageCursor, signal: AbortSignal | undefined): Promise<{ intervalMs: number; coverage: Coverage | undefined } | undefined>
}

/**
 * Options of a walk over a candle endpoint: the request options, applied to each of its requests,
 * and its own.
 * @example
 * client.exchangeOhlcvCandles(params, { maxItems: 10_000, concurrency: 4, timeout: 10_000, signal })
 */
export interface WalkOptions extends RequestOptions {
  /** Aborts the walk: between pages, during rate-limit and retry waits, and in flight. */
  signal?: AbortSignal
  /** Stop after this many candles; the walk's cursor then points right after the last one. */
  maxItems?: number
  /**
   * Forward walks with a known range fetch up to this many windows at once, all under the rate
   * limiter, and still yield in exact order. `1` pages sequentially. Backward walks are always
   * sequential. A walk left early (break) may have fetched up to this many pages ahead: with
   * `maxItems` it fetches only what it may need.
   * @default 8
   */
  concurrency?: number
}

/** Options of `toArray()`. */
export interface ToArrayOptions {
  /** Stop after this many candles (the smaller of this and the walk's own `maxItems`). */
  maxItems?: number
}

function checkMaxItems(maxItems: unknown): void {
  if (maxItems !== undefined && !(typeof maxItems === 'number' && Number.isInteger(maxItems) && maxItems >= 0)) {
    throw new RangeError(`maxItems must be a non-negative integer, got ${String(maxItems)}`)
  }
}

function checkOptions(options: WalkOptions): void {
  const { maxItems, concurrency } = options
  checkMaxItems(maxItems)
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64)) {
    throw new RangeError(`concurrency must be an integer from 1 to 64, got ${concurrency}`)
  }
}

// A forward walk at a known interval can count what its range should hold; others cannot.
function gapTrackerOf(cursor: PageCursor): GapTracker | string {
  const { interval, start, end } = cursor.query
  if (cursor.direction !== 'forward' || start === undefined) return 'gaps() needs a forward walk (one with start): a backward walk has no first close time to count from'
  if (!isKnownInterval(interval)) return `gaps() knows the intervals 1m, 1h and 1d; '${String(interval)}' is newer than this package`
  return new GapTracker(interval, INTERVAL_MS[interval], dateTimeMs(start), end === undefined ? undefined : dateTimeMs(end))
}

/** What both walks share: where they go on, where their pages come from, their options. */
abstract class Walk<C extends { close_ts: string }, T> implements AsyncIterable<T> {
  protected position: PageCursor | null
  protected readonly source: WalkSource<C>
  protected readonly options: WalkOptions
  /** Counts the range's close times against the candles yielded; a string says why it cannot. @internal */
  protected readonly tracker: GapTracker | string

  constructor(source: WalkSource<C>, cursor: PageCursor, options: WalkOptions = {}, track = true) {
    checkOptions(options)
    this.source = source
    this.position = cursor
    this.options = options
    this.tracker = track ? gapTrackerOf(cursor) : 'not tracked'
  }

  /**
   * The gaps of a forward walk so far: the close times its range should hold at its interval that
   * the service has no candle for, as ranges, and the count expected against received. Kept as the
   * walk goes, without keeping candles. Once the walk is complete, a range with `end` also counts a
   * missing tail. Throws a `RangeError` for a backward walk or an interval this package does not know.
   * @example
   * const walk = client.exchangeOhlcvCandles({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2025-01-01', end: '2025-01-31' })
   * for await (const candle of walk) save(candle)
   * const { expected, received, gaps } = walk.gaps() // gaps: [{ from, to, missing }, ...]
   */
  gaps(): GapReport {
    if (typeof this.tracker === 'string') throw new RangeError(this.tracker)
    return this.tracker.report(this.cursor === null)
  }

  /** Where the walk goes on; `null` when it is complete. */
  get cursor(): PageCursor | null {
    return this.position
  }

  /** The walk, stopping after `maxItems` candles. */
  protected abstract iterate(maxItems: number): AsyncGenerator<T, undefined>

  [Symbol.asyncIterator](): AsyncGenerator<T, undefined> {
    return this.iterate(this.options.maxItems ?? Infinity)
  }

  /**
   * Collects the walk into an array. It needs a bound, since a walk can hold millions of candles:
   * `maxItems` (of the walk or given here), or a forward walk with both `start` and `end`.
   * Rejects with a `RangeError` otherwise, before any request. Like iterating, it continues from
   * `cursor` and moves it.
   * @example
   * const day = await client.exchangeOhlcvCandles({ ...pair, start: '2025-01-01', end: '2025-01-02' }).toArray()
   * const latest = await client.exchangeOhlcvCandles(pair).toArray({ maxItems: 500 })
   */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    if (options === null || typeof options !== 'object') throw new TypeError('toArray options must be an object')
    checkKnownKeys('toArray', options, ['maxItems'])
    checkMaxItems(options.maxItems)
    const maxItems = Math.min(options.maxItems ?? Infinity, this.options.maxItems ?? Infinity)
    const cursor = this.position
    const bounded = cursor === null || cursor.direction === 'forward' && cursor.query.end !== undefined
    if (maxItems === Infinity && !bounded) {
      throw new RangeError(
        'toArray() needs a bound: pass { maxItems } (to the walk or to toArray), or give the query both start and end. ' +
          'Without one, a walk can hold millions of candles; iterate it with for await instead.',
      )
    }
    const out: T[] = []
    for await (const item of this.iterate(maxItems)) out.push(item)
    return out
  }
}

/**
 * An async iterable of pages. `cursor` always says where the walk goes on: iterate the same walk
 * again, or pass the cursor to `resumePages` (even in another process), and it continues with no
 * gap and no duplicate. `cursor` is `null` once the walk has reached its end.
 */
export class PageWalk<C extends { close_ts: string }> extends Walk<C, CandlePage<C>> {
  private observe(candles: readonly C[]): void {
    const tracker = this.tracker
    if (typeof tracker !== 'string') tracker.observeAll(candles)
  }

  protected async *iterate(maxItems: number): AsyncGenerator<CandlePage<C>, undefined> {
    const { signal } = this.options
    const origin = this.position
    if (origin === null || maxItems === 0) return
    throwIfAborted(signal)
    let emitted = 0
    const guarded: FetchPage<C> = (query, s) => {
      throwIfAborted(s)
      return this.source.fetchPage(query, s)
    }
    const concurrency = this.options.concurrency ?? DEFAULT_CONCURRENCY
    const plan = origin.direction === 'forward' && concurrency > 1 ? await this.source.plan?.(origin, signal) : undefined
    const pages = plan
      ? concurrentPages(guarded, origin, { ...plan, concurrency, wanted: maxItems }, signal)
      : sequentialPages(guarded, origin, signal)
    for await (const page of pages) {
      // Pages fetched ahead are already here: the signal is checked before each one is handed out.
      throwIfAborted(signal)
      if (emitted + page.candles.length >= maxItems) {
        const kept = page.candles.length - (emitted + page.candles.length - maxItems)
        // Backward pages are consumed newest first, so a cut keeps the newest candles.
        const direction = origin.direction
        const candles = direction === 'forward' ? page.candles.slice(0, kept) : page.candles.slice(page.candles.length - kept)
        const edge = direction === 'forward' ? candles.at(-1) : candles[0]
        // The walk's own query, not the page's: a window's page carries the window's end.
        const cursor = kept === page.candles.length ? page.cursor : edge ? cursorAfter(origin, edge) : this.position
        this.position = cursor
        this.observe(candles)
        yield { ...page, candles, cursor }
        return
      }
      emitted += page.candles.length
      this.position = page.cursor
      this.observe(page.candles)
      yield page
    }
    return
  }
}

/**
 * An async iterable of candles. Forward walks (with `start`) yield ascending `close_ts`; backward
 * walks (without `start`) yield descending `close_ts`, newest first, as the pages arrive. `cursor`
 * points right after the last candle yielded.
 */
export class CandleWalk<C extends { close_ts: string }> extends Walk<C, C> {
  // The cursor is worked out when read, not at every candle: building it costs more than the candle.
  #pendingOrigin: PageCursor | undefined
  #pendingAfter: C | undefined

  override get cursor(): PageCursor | null {
    if (this.#pendingAfter !== undefined) {
      this.position = cursorAfter(this.#pendingOrigin!, this.#pendingAfter)
      this.#pendingAfter = undefined
    }
    return this.position
  }

  protected async *iterate(maxItems: number): AsyncGenerator<C, undefined> {
    const origin = this.cursor
    if (origin === null) return
    const { signal } = this.options
    const forward = origin.direction === 'forward'
    // The candle walk counts its own gaps, as candles are handed out.
    const pages = new PageWalk(this.source, origin, { ...this.options, maxItems: maxItems === Infinity ? undefined : maxItems }, false)
    const tracker = typeof this.tracker === 'string' ? undefined : this.tracker
    for await (const page of pages) {
      const { candles } = page
      const last = candles.length - 1
      for (let k = 0; k <= last; k++) {
        // The page walk checks the signal before each page; this covers the candles within one.
        if (k > 0) throwIfAborted(signal)
        const candle = candles[forward ? k : last - k]!
        if (k === last) {
          this.#pendingAfter = undefined
          this.position = page.cursor
        } else {
          this.#pendingOrigin = origin
          this.#pendingAfter = candle
        }
        tracker?.observe(candle.close_ts)
        yield candle
      }
      if (last < 0) {
        this.#pendingAfter = undefined
        this.position = page.cursor
      }
    }
    return
  }
}
