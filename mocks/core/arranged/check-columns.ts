import { INTERVAL_MS, isKnownInterval } from '../../../src/schemas/index.js'
import { lifetimeOf } from '../../data/candle-rules.js'
import type { ExchangeColumns } from '../../data/overlay/exchange-columns.js'
import type { Catalog } from './check-candles.js'

/**
 * Whether loaded runs pass every rule checkCandles applies to their candles (candleProblems: grid,
 * OHLC order, volumes, quote/base within [low, high]; known interval, assets and exchange; the
 * exchange's lifetime; one candle per close time), checked over the columns without an object.
 * Only a yes or no: on no, `load` checks the file's candles as objects, which names every bad row.
 */
export function columnsPass(runs: readonly ExchangeColumns[], catalog: Catalog): boolean {
  for (const run of runs) {
    const { interval, length: n, ts, open, high, low, close, baseVolume, quoteVolume } = run
    if (!isKnownInterval(interval) || !catalog.hasAsset(run.base) || !catalog.hasAsset(run.quote)) return false
    const exchange = catalog.exchange(run.exchange)
    if (!exchange) return false
    if (n === 0) continue
    // Ascending close times: the run's ends bound it, so the lifetime is checked there.
    const { first, last } = lifetimeOf(exchange, interval)
    if (ts[0]! < first || ts[n - 1]! > last) return false
    const step = INTERVAL_MS[interval]
    let previous = -Infinity
    for (let i = 0; i < n; i++) {
      const t = ts[i]!
      const o = open[i]!
      const h = high[i]!
      const l = low[i]!
      const c = close[i]!
      const bv = baseVolume[i]!
      const qv = quoteVolume[i]!
      if (!(t > previous) || t % step !== 0) return false
      previous = t
      // The negations also refuse NaN and infinities (the object path's schema judges those).
      if (!Number.isFinite(o + h + l + c + bv + qv)) return false
      if (!(l <= h && o >= l && o <= h && c >= l && c <= h && bv >= 0 && qv >= 0)) return false
      if (bv > 0) {
        const avg = qv / bv
        if (avg < l || avg > h) return false
      }
    }
  }
  return true
}
