import { throwIfAborted } from '../internal/abort.js'
import { cursorAfter, withAnchor, type CandlePage, type PageCursor } from './page-cursor.js'
import { sequentialPages, type FetchPage } from './sequential-pages.js'
import { dateTimeMs } from '../contract/parse-datetime.js'
import { parseTimestamp } from '../contract/close-time.js'

/** The span of a series that holds candles, in epoch ms (from the public pairs catalog). */
export interface Coverage {
  first: number
  last: number
}

/** What an ordered concurrent walk needs besides a page fetcher. */
export interface ConcurrentPlan {
  /** Windows in flight at once. */
  concurrency: number
  /** Length of one candle interval in ms. */
  intervalMs: number
  /** The series' coverage, or undefined when it cannot be known (the walk then runs sequentially). */
  coverage: Coverage | undefined
  /** Stop fetching ahead once this many candles are on their way (maxItems). */
  wanted: number
}

type Task<C> = { pages: Array<Promise<CandlePage<C>>>; done: Promise<void> }

/**
 * A forward walk split into windows of `limit` intervals, up to `concurrency` of them in flight,
 * yielded in exact ascending order. Each window is itself walked by the paging rules, bounded by the
 * window's end, so a window that fills before its end simply continues inside it: correctness never
 * depends on candles sitting on the grid. Past the known coverage, the walk ends with an open
 * sequential tail, so candles that closed meanwhile are not missed. Memory holds at most
 * `concurrency` windows.
 */
export async function* concurrentPages<C extends { close_ts: string }>(
  fetchPage: FetchPage<C>,
  cursor: PageCursor,
  plan: ConcurrentPlan,
  signal: AbortSignal | undefined,
): AsyncGenerator<CandlePage<C>> {
  const { query } = cursor
  const limit = Number(query.limit)
  const start = dateTimeMs(query.start!)
  const end = query.end === undefined ? Infinity : dateTimeMs(query.end)
  const coverage = plan.coverage
  if (coverage === undefined || plan.concurrency <= 1) {
    yield* sequentialPages(fetchPage, cursor, signal)
    return
  }
  const step = plan.intervalMs
  const from = Math.max(start, coverage.first)
  // Window k ends on the grid point g0 + ((k+1)·limit - 1)·step, so it holds exactly `limit` candles
  // when they sit on the grid and a full page ends the window without a further, empty request.
  const g0 = Math.ceil(from / step) * step
  let k = 0
  const windowsEnd = Math.min(end, coverage.last)
  // Our own controller: leaving the walk early (error, break) cancels the windows in flight.
  const inner = new AbortController()
  const onAbort = () => inner.abort(signal!.reason)
  signal?.addEventListener('abort', onAbort, { once: true })

  const windowCursor = (lo: number, hi: number | undefined): PageCursor => withAnchor(withAnchor(cursor, 'start', lo), 'end', hi)

  // One window walked sequentially in the background; its pages are promises, read in order.
  const run = (origin: PageCursor): Task<C> => {
    const pages: Array<Promise<CandlePage<C>>> = []
    let resolveNext!: (page: CandlePage<C>) => void
    const push = () => pages.push(new Promise((resolve) => (resolveNext = resolve)))
    push()
    const done = (async () => {
      for await (const page of sequentialPages(fetchPage, origin, inner.signal)) {
        const settle = resolveNext
        if (page.cursor !== null) push()
        settle(page)
      }
    })()
    done.catch(() => {})
    return { pages, done }
  }

  const tasks: Task<C>[] = []
  let nextLo = from
  let emitted = 0
  const tailEnd = end === Infinity ? undefined : end
  let tailStarted = false
  const startMore = () => {
    // With maxItems, fetch ahead only what may still be needed.
    while (tasks.length < plan.concurrency && emitted + tasks.length * limit < plan.wanted) {
      if (nextLo <= windowsEnd) {
        const hi = Math.min(g0 + ((k + 1) * limit - 1) * step, windowsEnd)
        tasks.push(run(windowCursor(nextLo, hi)))
        nextLo = hi + 1
        k++
      } else if (!tailStarted && (tailEnd === undefined || nextLo <= tailEnd)) {
        // The open tail: up to `end`, or until a short page when `end` is omitted.
        tasks.push(run(windowCursor(nextLo, tailEnd)))
        tailStarted = true
      } else break
    }
  }
  try {
    startMore()
    let lastQuery = query
    let lastCursor: PageCursor | null = cursor
    while (tasks.length > 0) {
      const task = tasks[0]!
      for (let i = 0; ; i++) {
        // A window that failed rejects `done`; its pending page never settles, so race them.
        const page = await Promise.race([task.pages[i]!, task.done.then(() => task.pages[i]!)])
        lastQuery = page.query
        if (page.candles.length > 0) {
          emitted += page.candles.length
          // The cursor of the whole walk: right after this page's last candle, toward the walk's end.
          const last = page.candles.at(-1)!
          lastCursor = parseTimestamp(last.close_ts) + 1 > end ? null : cursorAfter(cursor, last)
          yield { ...page, cursor: lastCursor }
        }
        if (page.cursor === null) break
      }
      await task.done
      tasks.shift()
      startMore()
    }
    // Every window and the tail are done: say so with a last, empty page, as a short page would.
    if (lastCursor !== null) yield { candles: [], query: lastQuery, cursor: null }
  } catch (error) {
    throwIfAborted(signal)
    throw error
  } finally {
    inner.abort()
    signal?.removeEventListener('abort', onAbort)
  }
}
