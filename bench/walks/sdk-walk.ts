/** The SDK side of 3a: `client.exchangeOhlcvCandles(...)` consumed candle by candle, like the raw loop. */
import type { MarketCandles } from '../../src/index.js'
import type { WalkTally } from './raw-walk.js'
import { walkParams, type WalkRange } from '../support/walk-range.js'

/**
 * Walks `range` with the forward iterator; counts candles and sums `close` exactly as the raw loop
 * does. `urls` is filled by the caller's `onRequest` hook, when it records them.
 */
export async function sdkWalk(client: MarketCandles, range: WalkRange, concurrency: number, urls: string[] = []): Promise<WalkTally> {
  const tally: WalkTally = { pages: 0, candles: 0, closeSum: 0, urls }
  for await (const candle of client.exchangeOhlcvCandles(walkParams(range), { concurrency })) {
    tally.candles++
    tally.closeSum += candle.close
  }
  return tally
}
