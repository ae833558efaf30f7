import { MarketCandlesError } from '../errors/market-candles-error.js'

/**
 * Candles `resample` cannot combine: out of order, of mixed series, not on their interval's grid,
 * or at an interval the target is not a whole multiple of.
 * @example
 * try {
 *   for (const c of resample(candles, '15m')) chart.update(c)
 * } catch (error) {
 *   if (error instanceof ResampleError) console.error(error.message) // says which candle and why
 *   else throw error
 * }
 */
export class ResampleError extends MarketCandlesError {
  override name = 'ResampleError'
}
