import type { AggregatedCandle } from './aggregated-candle.js'
import type { ExchangeCandle } from './exchange-candle.js'

/**
 * A candle of either candle endpoint: what a follow of several series, `resample` and `export`
 * hand on. Tell them apart by a field only one has.
 * @example
 * const where = (c: AnyCandle) => ('exchange' in c ? c.exchange : c.method)
 */
export type AnyCandle = ExchangeCandle | AggregatedCandle
