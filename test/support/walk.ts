import type { Transport } from './transports.js'
import { qs } from './transports.js'

type Params = Record<string, string | number | undefined>

/**
 * Walks a candle endpoint by the paging rules alone: forward from `start` (next start = last
 * close_ts + 1 ms), or backward without it (next end = earliest close_ts - 1 ms), until a short page
 * or, forward, until `end` is reached.
 * Returns every candle in the order received and the number of pages.
 */
export async function walk(t: Transport, path: string, params: Params, headers: Record<string, string>, options: { maxPages?: number; until?: string } = {}) {
  const { maxPages = 10_000, until } = options
  const limit = Number(params.limit ?? 500)
  const pages: any[][] = []
  let cursor = { ...params }
  for (let i = 0; i < maxPages; i++) {
    const res = await t.get(`${path}${qs(cursor)}`, headers)
    if (res.status !== 200) throw new Error(`page ${i}: ${res.status} ${JSON.stringify(res.body)}`)
    const page = res.body as Array<{ close_ts: string }>
    pages.push(page)
    if (page.length < limit) return { pages }
    if (params.start !== undefined) {
      const next = Date.parse(page.at(-1)!.close_ts) + 1
      // end reached: the next start would be past it
      if (params.end !== undefined && next > Date.parse(String(params.end))) return { pages }
      cursor = { ...cursor, start: new Date(next).toISOString() }
    } else {
      // backward walks of a long history stop once they pass `until`
      if (until !== undefined && page[0]!.close_ts < until) return { pages }
      cursor = { ...cursor, end: new Date(Date.parse(page[0]!.close_ts) - 1).toISOString() }
    }
  }
  throw new Error(`walk did not end within ${maxPages} pages`)
}
