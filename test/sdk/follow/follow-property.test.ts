import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { AggregatedCandle, CandleFollow, FollowCursor } from '../../../src/index.js'
import type { ExchangeCandle } from '../../../src/schemas/index.js'
import { candle } from '../../support/fixtures.js'
import { sdkViaMsw } from '../../support/sdk-targets.js'

const MIN = 60_000
const T = Date.UTC(2026, 0, 1)
/** Minutes in the series; the clock starts `HISTORY` minutes in, so the rest arrives live. */
const LENGTH = 14
const HISTORY = 4

function dataset(missing: ReadonlySet<number>) {
  const candles: ExchangeCandle[] = []
  for (let i = 1; i <= LENGTH; i++) if (!missing.has(i)) candles.push(candle('alpha', 'BTC/USD', '1m', T + i * MIN, 100 + i))
  return {
    exchanges: [{ name: 'alpha', creation_date: '2025-01-01', closing_date: null }],
    assets: [
      { name: 'US Dollar', asset_type: 'FIAT' as const, ticker: 'USD' },
      { name: 'Bitcoin', asset_type: 'CRYPTO' as const, ticker: 'BTC' },
    ],
    candles,
  }
}

describe('follow, property: the followed sequence equals the service series up to the end time, exactly once each', () => {
  test('for random publish delays, missing candles, service outages and restarts from the cursor', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 2, max: LENGTH }), { maxLength: 5 }),
        fc.integer({ min: 0, max: 9_000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: LENGTH - 1 }), { maxLength: 3 }),
        fc.record({ after: fc.integer({ min: 0, max: 12 }), times: fc.integer({ min: 0, max: 8 }), status: fc.constantFrom(500, 502, 503, 429) }),
        async (missingList, publishDelayMs, restartsAfter, outage) => {
          const missing = new Set(missingList)
          const data = dataset(missing)
          // A clock at 600x: a minute every 100 ms of wall time; the 10 requests/second limit stays out of the way.
          const target = await sdkViaMsw({ data, now: T + HISTORY * MIN, clockRate: 600, publishDelayMs, rateLimit: false })
          // An outage of `times` failed requests after the first `after`: ridden out, retries off so it reaches the follow.
          if (outage.times > 0) target.service.faults.add({ path: '/v1/exchange_ohlcv', after: outage.after, times: outage.times, status: outage.status })
          try {
            const now = () => target.service.clock.now()
            const params = { exchange: 'alpha', interval: '1m', base: 'BTC', quote: 'USD', start: T, end: T + LENGTH * MIN }
            const seen: string[] = []
            const restarts = [...restartsAfter].sort((a, b) => a - b)
            let cursor: FollowCursor | undefined
            let live: CandleFollow<ExchangeCandle | AggregatedCandle> = target.client({ apiKey: 'demo-enterprise-key', retry: false, rateLimit: false }).exchangeOhlcvFollow(params, { now })
            for (;;) {
              let stopped = false
              for await (const c of live) {
                seen.push(c.close_ts)
                if (restarts.length > 0 && seen.length >= restarts[0]!) {
                  restarts.shift()
                  stopped = true
                  break
                }
              }
              if (!stopped) break
              // A restart: the cursor as stored JSON, a new client, the same follow.
              cursor = JSON.parse(JSON.stringify(live.cursor))
              live = target.client({ apiKey: 'demo-enterprise-key', retry: false, rateLimit: false }).resumeFollow(cursor!, { now })
            }
            expect(seen).toEqual(data.candles.map((c) => c.close_ts))
            expect(live.ended?.reason).toBe('end')
          } finally {
            await target.close()
          }
        },
      ),
      { numRuns: 8, interruptAfterTimeLimit: 60_000 },
    )
  }, 120_000)
})
