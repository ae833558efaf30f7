import { APIUserAbortError } from '../errors/index.js'
import type { CandlePage, PageCursor } from './page-cursor.js'
import { cursorAfter, sequentialPages, type FetchPage } from './sequential-pages.js'

/** Options of a walk over a candle endpoint. */
export interface WalkOptions {
  /** Aborts the walk: between pages, during rate-limit and retry waits, and in flight. */
  signal?: AbortSignal
  /** Stop after this many candles; the walk's cursor then points right after the last one. */
  maxItems?: number
}

function checkMaxItems(maxItems: number | undefined): void {
  if (maxItems !== undefined && !(Number.isInteger(maxItems) && maxItems >= 0)) {
    throw new RangeError(`maxItems must be a non-negative integer, got ${maxItems}`)
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new APIUserAbortError(signal.reason)
}

/**
 * An async iterable of pages. `cursor` always says where the walk goes on: iterate the same walk
 * again, or pass the cursor to `resumePages` (even in another process), and it continues with no
 * gap and no duplicate. `cursor` is `null` once the walk has reached its end.
 */
export class PageWalk<C extends { close_ts: string }> implements AsyncIterable<CandlePage<C>> {
  #cursor: PageCursor | null
  readonly #fetchPage: FetchPage<C>
  readonly #options: WalkOptions

  constructor(fetchPage: FetchPage<C>, cursor: PageCursor, options: WalkOptions = {}) {
    checkMaxItems(options.maxItems)
    this.#fetchPage = fetchPage
    this.#cursor = cursor
    this.#options = options
  }

  /** Where the walk goes on; `null` when it is complete. */
  get cursor(): PageCursor | null {
    return this.#cursor
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CandlePage<C>> {
    const { signal, maxItems = Infinity } = this.#options
    const origin = this.#cursor
    if (origin === null || maxItems === 0) return
    throwIfAborted(signal)
    let emitted = 0
    const guarded: FetchPage<C> = (query, s) => {
      throwIfAborted(s)
      return this.#fetchPage(query, s)
    }
    for await (const page of sequentialPages(guarded, origin, signal)) {
      if (emitted + page.candles.length >= maxItems) {
        const kept = page.candles.length - (emitted + page.candles.length - maxItems)
        // Backward pages are consumed newest first, so a cut keeps the newest candles.
        const direction = origin.direction
        const candles = direction === 'forward' ? page.candles.slice(0, kept) : page.candles.slice(page.candles.length - kept)
        const edge = direction === 'forward' ? candles.at(-1) : candles[0]
        const cursor = kept === page.candles.length ? page.cursor : edge ? cursorAfter({ ...origin, query: page.query }, edge) : this.#cursor
        this.#cursor = cursor
        yield { ...page, candles, cursor }
        return
      }
      emitted += page.candles.length
      this.#cursor = page.cursor
      yield page
    }
  }
}

/**
 * An async iterable of candles. Forward walks (with `start`) yield ascending `close_ts`; backward
 * walks (without `start`) yield descending `close_ts`, newest first, as the pages arrive. `cursor`
 * points right after the last candle yielded.
 */
export class CandleWalk<C extends { close_ts: string }> implements AsyncIterable<C> {
  #cursor: PageCursor | null
  readonly #fetchPage: FetchPage<C>
  readonly #options: WalkOptions

  constructor(fetchPage: FetchPage<C>, cursor: PageCursor, options: WalkOptions = {}) {
    checkMaxItems(options.maxItems)
    this.#fetchPage = fetchPage
    this.#cursor = cursor
    this.#options = options
  }

  /** Where the walk goes on; `null` when it is complete. */
  get cursor(): PageCursor | null {
    return this.#cursor
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<C> {
    const origin = this.#cursor
    if (origin === null) return
    const pages = new PageWalk(this.#fetchPage, origin, this.#options)
    const forward = origin.direction === 'forward'
    for await (const page of pages) {
      const template = { ...origin, query: page.query }
      const ordered = forward ? page.candles : [...page.candles].reverse()
      for (let i = 0; i < ordered.length; i++) {
        this.#cursor = i === ordered.length - 1 ? page.cursor : cursorAfter(template, ordered[i]!)
        yield ordered[i]!
      }
      if (ordered.length === 0) this.#cursor = page.cursor
    }
  }
}
