import { afterAll, beforeAll } from 'vitest'
import { startMockServer, type RunningMockServer } from '../../mocks/server/index.js'
import { createClient, type AggregatedCandle, type ExchangeCandle } from '../../src/index.js'

/** One real page of each candle kind, as the SDK gives it: 1000 bitstamp BTC/USD 1m candles and the 1h aggregate. */
export interface ReferencePages {
  exchange: ExchangeCandle[]
  aggregated: AggregatedCandle[]
}

/**
 * Fetches the pages from a reference server started for the calling test file (beforeAll) and
 * closes it after (afterAll); the object's fields are filled in before the file's tests run.
 */
export function useReferencePages(): ReferencePages {
  const pages: ReferencePages = { exchange: [], aggregated: [] }
  let server: RunningMockServer | undefined
  beforeAll(async () => {
    server = await startMockServer({ port: 0, now: '2025-06-01T00:00:00Z', rateLimit: false })
    const client = createClient({ apiKey: 'demo-enterprise-key', baseUrl: server.url, rateLimit: false })
    pages.exchange = await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2024-03-01T00:00:00Z', limit: 1000 })
    pages.aggregated = await client.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', start: '2024-03-01T00:00:00Z', limit: 1000 })
  })
  afterAll(async () => {
    await server?.close()
  })
  return pages
}
