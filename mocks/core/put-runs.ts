import type { ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'
import type { ExchangeColumns } from '../data/exchange-columns.js'
import type { OverlayStore } from '../data/overlay-store.js'
import { putColumns } from '../data/series-edit.js'
import type { DataChange } from '../data/arranged-data.js'

/**
 * Puts runs that passed `columnsPass` (every interval known) into their series as columns, no
 * candle object made, then marks the data changed: what `load` of an export's SQLite file and a
 * plain batch posted to /_mock/data/candles both store.
 */
export function putRuns(runs: readonly ExchangeColumns[], overlay: OverlayStore): DataChange {
  let count = 0
  for (const run of runs) {
    putColumns<ExchangeCandle>(overlay.exchangeEdit(run.exchange, run.interval as KnownInterval, run.base, run.quote), run)
    count += run.length
  }
  overlay.changed()
  return { candles: count }
}
