import type { ExchangeCandle, KnownInterval } from '../../../src/schemas/index.js'
import type { ExchangeColumns } from '../../data/overlay/exchange-columns.js'
import { derivedCatalog } from '../../data/export-files/derived-catalog.js'
import type { OverlayStore } from '../../data/overlay/overlay-store.js'
import { putColumns } from '../../data/overlay/series-edit.js'
import { columnsPass } from './check-columns.js'
import type { DataChange } from '../../data/arranged-data.js'

/**
 * `load` of runs read as columns: the catalog the data names, every rule over the columns, then
 * each run put into its series as it is (no candle object made). Undefined when a rule fails:
 * `load` then reads the file as candles and its checks name every bad row, as for any other source.
 */
export function loadColumns(runs: readonly ExchangeColumns[], overlay: OverlayStore): DataChange | undefined {
  // A run is one series in close-time order: its first candle names what derivedCatalog needs.
  const firsts = runs.filter((r) => r.length > 0).map((r) => r.at(0)!.candle)
  const derived = derivedCatalog(firsts, overlay)
  const exchanges = new Map(derived.exchanges.map((e) => [e.name, e]))
  const tickers = new Set(derived.assets.map((a) => a.ticker))
  if (!columnsPass(runs, { exchange: (name) => exchanges.get(name) ?? overlay.exchange(name), hasAsset: (t) => tickers.has(t) || overlay.hasAsset(t) })) return undefined
  for (const e of derived.exchanges) overlay.putExchange(e)
  for (const a of derived.assets) overlay.putAsset(a)
  let count = 0
  for (const run of runs) {
    // columnsPass checked every interval.
    putColumns<ExchangeCandle>(overlay.exchangeEdit(run.exchange, run.interval as KnownInterval, run.base, run.quote), run)
    count += run.length
  }
  overlay.changed()
  return { candles: count }
}
