/**
 * The baseline of 3a: the forward walk by hand, `fetch` + `JSON.parse`, one page after another,
 * with the SDK's anchors (page k+1 starts at page k's last close_ts + 1 ms; limit 1000) and the
 * SDK's URL spelling, so both sides send the very same requests.
 */
import { API_KEY, PAGE_LIMIT } from '../support/fixtures.js'
import type { WalkRange } from '../support/walk-range.js'

interface Row {
  close_ts: string
  close: number
}

/** What a walk saw: pages, candles, the sum of `close` (to compare both sides) and the URLs sent. */
export interface WalkTally {
  pages: number
  candles: number
  closeSum: number
  urls: string[]
}

export const candleUrl = (baseUrl: string, start: string, end: string): string =>
  `${baseUrl}/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD` +
  `&start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}&limit=${PAGE_LIMIT}`

export async function rawWalk(baseUrl: string, range: WalkRange): Promise<WalkTally> {
  const endMs = Date.parse(range.end)
  const tally: WalkTally = { pages: 0, candles: 0, closeSum: 0, urls: [] }
  for (let start = range.start; ; ) {
    const url = candleUrl(baseUrl, start, range.end)
    tally.urls.push(url)
    const res = await fetch(url, { headers: { 'X-API-Key': API_KEY } })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`)
    const rows = JSON.parse(text) as Row[]
    tally.pages++
    for (let i = 0; i < rows.length; i++) {
      tally.candles++
      tally.closeSum += rows[i]!.close
    }
    if (rows.length < PAGE_LIMIT) break
    const next = Date.parse(rows[rows.length - 1]!.close_ts) + 1
    if (next > endMs) break
    start = new Date(next).toISOString()
  }
  return tally
}
