/**
 * The URLs the throughput rounds request. Each page has several URL spellings: its `start` plus
 * 0..VARIANTS-1 ms, all inside the same minute, so they select the same candles and get the same
 * bytes. The n-th request of a run always gets a URL not requested before, so no URL-keyed cache
 * (in the service, the server or the client) can help either side.
 */
import { PAGE_LIMIT, farUrl } from '../support/fixtures.js'
import type { FetchedPage } from './prefetch-pages.js'

export interface PageSet {
  /** Every spelling of every page, with that page's bytes. */
  readonly bytes: ReadonlyMap<string, Buffer>
  readonly pageCount: number
  readonly capacity: number
  /** The paths of requests `from .. from + count - 1` of a run. */
  paths(from: number, count: number): string[]
}

export function createPageSet(pages: readonly FetchedPage[], variants: number, limit = PAGE_LIMIT): PageSet {
  if (variants > 59_000) throw new RangeError('variants must stay inside one minute')
  const bytes = new Map<string, Buffer>()
  const url = (n: number) => farUrl(pages[n % pages.length]!.start + Math.floor(n / pages.length), limit)
  const capacity = pages.length * variants
  for (let n = 0; n < capacity; n++) bytes.set(url(n), pages[n % pages.length]!.body)
  return {
    bytes,
    pageCount: pages.length,
    capacity,
    paths(from, count) {
      if (from + count > capacity) throw new RangeError(`only ${capacity} distinct URLs prepared`)
      return Array.from({ length: count }, (_, i) => url(from + i))
    },
  }
}
