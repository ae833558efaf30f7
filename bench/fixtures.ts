/** What both measurements share: the fixed clock, the key and the page URLs. */

/** The service's fixed "now". */
export const NOW = '2026-01-01T00:00:00Z'
export const NOW_MS = Date.parse(NOW)
/** Unlimited plan (enterprise): no history-depth clipping, no 403. */
export const API_KEY = 'demo-enterprise-key'
export const HEADERS = { 'x-api-key': API_KEY }
export const PAGE_LIMIT = 1000
export const MINUTE = 60_000

const BASE = `/v1/exchange_ohlcv?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=${PAGE_LIMIT}`

/** Latest page up to `endMs` (no `start`: the descending walk). */
export const nearUrl = (endMs: number): string => `${BASE}&end=${new Date(endMs).toISOString()}`

/** First page from `startMs` on (the ascending walk). */
export const farUrl = (startMs: number): string => `${BASE}&start=${new Date(startMs).toISOString()}`
