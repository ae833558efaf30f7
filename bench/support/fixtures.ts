/** What both measurements share: the fixed clock, the key and the page URLs. */

/** The service's fixed "now". */
export const NOW = '2026-01-01T00:00:00Z'
export const NOW_MS = Date.parse(NOW)
/** Unlimited plan (enterprise): no history-depth clipping, no 403. */
export const API_KEY = 'demo-enterprise-key'
export const HEADERS = { 'x-api-key': API_KEY }
export const PAGE_LIMIT = 1000
export const MINUTE = 60_000

export const CANDLE_PATH = '/v1/exchange_ohlcv'
const base = (limit: number) => `${CANDLE_PATH}?exchange=bitstamp&interval=1m&base=BTC&quote=USD&limit=${limit}`

/** Latest page up to `endMs` (no `start`: the descending walk). */
export const nearUrl = (endMs: number): string => `${base(PAGE_LIMIT)}&end=${new Date(endMs).toISOString()}`

/** First page of `limit` candles from `startMs` on (the ascending walk). */
export const farUrl = (startMs: number, limit = PAGE_LIMIT): string => `${base(limit)}&start=${new Date(startMs).toISOString()}`
