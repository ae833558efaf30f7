import type { Series } from '../../plan/series.js'
import type { Kind } from '../columns.js'
import { CopyTextWriter } from './postgres-copy-text.js'
import { plannedSeriesKey, type AnyCandle } from '../sink.js'

/** A page of a batch: its series and its last close_ts (the candles themselves are encoded at once, not kept). */
export interface BatchPage {
  series: Series
  lastCloseTs: string
}

interface Waiting extends BatchPage {
  resolve(): void
  reject(error: unknown): void
}

interface Gathering {
  seriesKey: string
  writer: CopyTextWriter
  pages: Waiting[]
}

/**
 * Group commit: the pages that arrive while a batch is being stored are gathered (encoded as they
 * come) and go together as the next batch, of one series, in one COPY statement and one transaction,
 * as soon as the running one ends; a lone page goes at once, never held back waiting for more. Each
 * page's promise settles when its batch is committed or has failed. After a failure every batch
 * still waiting and every later page is refused unstored, so what is stored stays a gap-free prefix
 * of what was given.
 */
export class PageBatches {
  private readonly waiting: Gathering[] = []
  private running = false
  private failure: { error: unknown } | undefined

  /**
   * @param store stores one batch: its COPY data and its pages; resolves once committed
   * @param maxPages the most pages in one batch
   */
  constructor(
    private readonly kind: Kind,
    private readonly store: (data: Buffer, pages: readonly BatchPage[]) => Promise<void>,
    private readonly maxPages: number,
  ) {}

  /** Adds a page; resolves once the batch holding it is committed. */
  add(series: Series, candles: readonly AnyCandle[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error)
    if (candles.length === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const seriesKey = plannedSeriesKey(series)
      let last = this.waiting.at(-1)
      // One series a batch: its rows then go in ascending key order, as one page's do, so two exporters
      // storing the same series wait on each other at most one way, never in a cycle (a deadlock).
      if (last === undefined || last.pages.length >= this.maxPages || last.seriesKey !== seriesKey) {
        const writer = new CopyTextWriter(this.kind)
        writer.begin()
        last = { seriesKey, writer, pages: [] }
        this.waiting.push(last)
      }
      const mark = last.writer.length
      try {
        last.writer.add(candles)
      } catch (error) {
        // Not a half-written page in the batch, and (as after a failed batch) no later page stored.
        last.writer.truncate(mark)
        this.failure ??= { error }
        reject(error)
        return
      }
      last.pages.push({ series, lastCloseTs: candles[candles.length - 1]!.close_ts, resolve, reject })
      void this.drain()
    })
  }

  private async drain(): Promise<void> {
    if (this.running) return
    this.running = true
    while (this.waiting.length > 0) {
      const batch = this.waiting.shift()!
      try {
        if (this.failure) throw this.failure.error
        await this.store(batch.writer.finish(), batch.pages)
        for (const page of batch.pages) page.resolve()
      } catch (error) {
        this.failure ??= { error }
        for (const page of batch.pages) page.reject(this.failure.error)
      }
    }
    this.running = false
  }
}
