import { INTERVAL_MS, assetSchema, exchangeSchema, type AggregatedCandle, type ExchangeCandle } from '../../../src/schemas/index.js'
import { candleModel } from '../../data/procedural/candle-model.js'
import { mapKey } from '../../data/map-key.js'
import type { OverlayStore } from '../../data/overlay/overlay-store.js'
import { proceduralSeries } from '../../data/procedural/procedural-series.js'
import { paveSegment, putPoints } from '../../data/overlay/series-edit.js'
import { countIn } from '../../data/series.js'
import { checkCandles, issueOf, type CheckedBatch } from './check-candles.js'
import { checkSelector, checkSpec } from './check-spec.js'
import type { DataChange, DataControl, DataIssue } from '../../data/arranged-data.js'
import type { AnyCandle } from '../../../src/schemas/index.js'
import { DataError } from '../../data/data-error.js'
import type { SeriesIndex } from '../state/series-index.js'

/** What `service.data` reads of its service: the overlay it changes, the lookups over it, the visible now. */
export interface DataHost {
  readonly overlay: OverlayStore
  index(): SeriesIndex
  /** The newest close time a request sees now (the clock less the publish delay). */
  visibleNow(): number
}

const isIssues = (x: unknown): x is DataIssue[] => Array.isArray(x)

/** `service.data` of one service or session: every change checked whole, then applied to its overlay only. */
export function createDataControl(host: DataHost): DataControl {
  const { overlay } = host
  const putChecked = (checked: CheckedBatch) => {
    let count = 0
    for (const g of checked.exchange) {
      putPoints(overlay.exchangeEdit(g.name, g.interval, g.base, g.quote), g.rows)
      count += g.rows.length
    }
    for (const g of checked.aggregated) {
      putPoints(overlay.aggregatedEdit(g.name, g.interval, g.base, g.quote), g.rows)
      count += g.rows.length
    }
    overlay.changed()
    return { candles: count }
  }
  const dataControl: DataControl = {
    putCandles(candles) {
      const checked = checkCandles(candles, overlay)
      if (isIssues(checked)) throw new DataError('putCandles', checked)
      return putChecked(checked)
    },
    removeCandles(selector) {
      const checked = checkSelector(selector, overlay)
      if (isIssues(checked)) throw new DataError('removeCandles', checked, 'selector')
      const { target, interval, base, quote, from, to } = checked
      const index = host.index()
      const pair = mapKey(base, quote)
      const series = 'exchange' in target ? index.exchangePairs(target.exchange, interval).get(pair) : index.aggregatedPairs(target.method, interval).get(pair)
      // A series that does not exist has nothing to remove (and gets no edit).
      if (!series) return { candles: 0 }
      // Counted up to now: an open series has no end. Counted without a walk where the series can say.
      const removed = countIn(series, from, Math.min(to, host.visibleNow()))
      if ('exchange' in target) paveSegment<ExchangeCandle>(overlay.exchangeEdit(target.exchange, interval, base, quote), from, to, null)
      else paveSegment<AggregatedCandle>(overlay.aggregatedEdit(target.method, interval, base, quote), from, to, null)
      overlay.changed()
      return { candles: removed }
    },
    putExchange(exchange) {
      const parsed = exchangeSchema.safeParse(exchange)
      if (!parsed.success) throw new DataError('putExchange', parsed.error.issues.map((i) => issueOf(0, i)), 'exchange')
      const { name, creation_date, closing_date } = parsed.data
      if (name === '') throw new DataError('putExchange', [{ index: 0, field: 'name', message: 'an exchange needs a non-empty name' }], 'exchange')
      if (closing_date !== null && closing_date < creation_date) {
        throw new DataError('putExchange', [{ index: 0, field: 'closing_date', message: `closing_date ${closing_date} is before creation_date ${creation_date}` }], 'exchange')
      }
      overlay.putExchange({ name, creation_date, closing_date })
      overlay.changed()
    },
    putAsset(asset) {
      const parsed = assetSchema.safeParse(asset)
      if (!parsed.success) throw new DataError('putAsset', parsed.error.issues.map((i) => issueOf(0, i)), 'asset')
      if (parsed.data.ticker === '') throw new DataError('putAsset', [{ index: 0, field: 'ticker', message: 'an asset needs a non-empty ticker' }], 'asset')
      overlay.putAsset(parsed.data)
      overlay.changed()
    },
    generate(spec) {
      const checked = checkSpec(spec, overlay)
      if (isIssues(checked)) throw new DataError('generate', checked, 'spec')
      const { exchange, interval, base, quote, firstClose, lastClose } = checked
      // The default dataset's model: the same candle function, seeded, over [firstClose, lastClose].
      const candleAt = candleModel(exchange, { base, quote, price: checked.price, volatility: checked.volatility, volumePerMinute: checked.volumePerMinute, seed: checked.seed }, interval)
      const source = proceduralSeries({ exchange, base, quote, interval, firstClose, lastClose, gaps: [], candleAt })
      paveSegment(overlay.exchangeEdit(exchange, interval, base, quote), firstClose, lastClose, source)
      overlay.changed()
      return { candles: (lastClose - firstClose) / INTERVAL_MS[interval] + 1 }
    },
    async load(source) {
      // Imported on demand: only a load pays for the readers (a chunk of its own in a browser bundle).
      const { derivedCatalog, readExportColumns, readExportFile } = await import('../../data/export-files/index.js')
      // An export's SQLite file is read into columns and checked there: no object per candle.
      const runs = readExportColumns(source)
      if (runs) {
        const done = (await import('./load-columns.js')).loadColumns(runs, overlay)
        if (done) return done
      }
      const { candles, origin } = await readExportFile(source)
      // A recording names exchanges and assets the service may not know: made from the data, put
      // only once every candle passed (nothing changes on a bad row).
      const derived = derivedCatalog(candles, overlay)
      const exchanges = new Map(derived.exchanges.map((e) => [e.name, e]))
      const tickers = new Set(derived.assets.map((a) => a.ticker))
      // The readers made every candle afresh, in the API's fields: kept, not copied again.
      const checked = checkCandles(candles, { exchange: (name) => exchanges.get(name) ?? overlay.exchange(name), hasAsset: (t) => tickers.has(t) || overlay.hasAsset(t) }, true)
      if (isIssues(checked)) {
        throw new DataError('load', checked.map((i) => ({ ...i, message: origin(i.index) === undefined ? i.message : `${i.message} (${origin(i.index)})` })))
      }
      for (const e of derived.exchanges) overlay.putExchange(e)
      for (const a of derived.assets) overlay.putAsset(a)
      return putChecked(checked)
    },
    reset: () => overlay.reset(),
  }
  return dataControl
}
