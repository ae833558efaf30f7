import { throwIfAborted } from '../internal/abort.js'
import { concurrentPages, type Coverage } from './concurrent-pages.js'
import { cursorAfter, type CandlePage, type PageCursor } from './page-cursor.js'
import { sequentialPages, type FetchPage } from './sequential-pages.js'

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

/** Options of a walk over a candle endpoint. */
export interface WalkOptions {
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

function checkOptions(options: WalkOptions): void {
  const { maxItems, concurrency } = options
  if (maxItems !== undefined && !(Number.isInteger(maxItems) && maxItems >= 0)) {
    throw new RangeError(`maxItems must be a non-negative integer, got ${maxItems}`)
  }
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64)) {
    throw new RangeError(`concurrency must be an integer from 1 to 64, got ${concurrency}`)
  }
}

/** What both walks share: where they go on, where their pages come from, their options. */
abstract class Walk<C extends { close_ts: string }, T> implements AsyncIterable<T> {
  protected position: PageCursor | null
  protected readonly source: WalkSource<C>
  protected readonly options: WalkOptions

  constructor(source: WalkSource<C>, cursor: PageCursor, options: WalkOptions = {}) {
    checkOptions(options)
    this.source = source
    this.position = cursor
    this.options = options
  }

  /** Where the walk goes on; `null` when it is complete. */
  get cursor(): PageCursor | null {
    return this.position
  }

  abstract [Symbol.asyncIterator](): AsyncGenerator<T, undefined>
}

/**
 * An async iterable of pages. `cursor` always says where the walk goes on: iterate the same walk
 * again, or pass the cursor to `resumePages` (even in another process), and it continues with no
 * gap and no duplicate. `cursor` is `null` once the walk has reached its end.
 */
export class PageWalk<C extends { close_ts: string }> extends Walk<C, CandlePage<C>> {
  async *[Symbol.asyncIterator](): AsyncGenerator<CandlePage<C>> {
    const { signal, maxItems = Infinity } = this.options
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
        yield { ...page, candles, cursor }
        return
      }
      emitted += page.candles.length
      this.position = page.cursor
      yield page
    }
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

  /**
   * Written by hand rather than as an async generator: a generator costs a few promise hops per
   * candle, which is most of what the SDK adds per page on top of `fetch` + `JSON.parse`. Same
   * contract: calls are served in order, an error or `return()` closes the page walk (and its
   * requests in flight), and the iterator is done after it.
   */
  [Symbol.asyncIterator](): AsyncGenerator<C, undefined> {
    const origin = this.cursor
    const { signal } = this.options
    const forward = origin?.direction === 'forward'
    let pages: AsyncIterator<CandlePage<C>> | undefined = origin === null ? undefined : new PageWalk(this.source, origin, this.options)[Symbol.asyncIterator]()
    let page: CandlePage<C> | undefined
    let ordered: readonly C[] = []
    let i = 0
    // Set while a page is being fetched; calls made meanwhile wait for it, as a generator's would.
    let busy: Promise<unknown> | undefined
    const done: IteratorReturnResult<undefined> = { value: undefined, done: true }

    const close = (): Promise<unknown> => {
      const open = pages
      pages = undefined
      ordered = []
      return open?.return?.() ?? Promise.resolve()
    }
    const fail = (error: unknown): Promise<never> =>
      close().then(
        () => Promise.reject(error),
        () => Promise.reject(error),
      )
    // The next candle of the page in hand, if any; keeps the cursor right after it.
    const take = (): IteratorYieldResult<C> | undefined => {
      if (i >= ordered.length) return undefined
      // The page walk checks the signal before each page; this covers the candles within one.
      if (i > 0) throwIfAborted(signal)
      const candle = ordered[i]!
      if (++i === ordered.length) {
        this.#pendingAfter = undefined
        this.position = page!.cursor
      } else {
        this.#pendingOrigin = origin!
        this.#pendingAfter = candle
      }
      return { value: candle, done: false }
    }
    const pull = async (): Promise<IteratorResult<C, undefined>> => {
      while (pages !== undefined) {
        const next = await pages.next()
        if (next.done) {
          pages = undefined
          return done
        }
        page = next.value
        // From the walk's own query: a window's page carries the window's end, not the walk's.
        ordered = forward ? page.candles : [...page.candles].reverse()
        i = 0
        const first = take()
        if (first !== undefined) return first
        this.#pendingAfter = undefined
        this.position = page.cursor
      }
      return done
    }
    // Waits again if another queued call started a fetch in the meantime.
    const whenIdle = <R>(then: () => Promise<R>): Promise<R> => (busy === undefined ? then() : busy.then(() => whenIdle(then)))
    const step = (): Promise<IteratorResult<C, undefined>> => {
      let result: IteratorResult<C, undefined> | undefined
      try {
        result = take()
      } catch (error) {
        return fail(error)
      }
      if (result !== undefined) return Promise.resolve(result)
      if (pages === undefined) return Promise.resolve(done)
      const pulled = pull().catch(fail)
      busy = pulled.then(
        () => (busy = undefined),
        () => (busy = undefined),
      )
      return pulled
    }
    const iterator: AsyncGenerator<C, undefined> = {
      next: () => whenIdle(step),
      return: (value?: unknown) => whenIdle(() => close().then(() => ({ value: value as undefined, done: true as const }))),
      throw: (error: unknown) => whenIdle(() => fail(error)),
      [Symbol.asyncIterator]: () => iterator,
      [Symbol.asyncDispose]: () => iterator.return(undefined).then(() => undefined),
    }
    return iterator
  }
}
