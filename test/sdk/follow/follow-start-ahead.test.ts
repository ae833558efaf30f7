import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createClient } from '../../../src/index.js'
import { startMockServer, type RunningMockServer } from '../../../mocks/server/index.js'

let server: RunningMockServer

beforeAll(async () => {
  // Ten 1m candles close each wall second.
  server = await startMockServer({ port: 0, now: '2026-01-01T00:00:00Z', clockRate: 600 })
})
afterAll(() => server.close())

describe('follow: a start still ahead of the service clock', () => {
  test('yields nothing before start: the first candle is the first close at or after it, then each one once', async () => {
    const client = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })
    const live = client.exchangeOhlcvFollow(
      { exchange: 'bitstamp', interval: '1m', base: 'BTC', quote: 'USD', start: '2026-01-01T00:09:30Z', end: '2026-01-01T00:12:00Z' },
      { now: () => server.service.clock.now() },
    )
    const seen: string[] = []
    for await (const candle of live) seen.push(candle.close_ts)
    expect(seen).toEqual(['2026-01-01T00:10:00Z', '2026-01-01T00:11:00Z', '2026-01-01T00:12:00Z'])
    expect(live.ended?.reason).toBe('end')
  }, 30_000)
})
