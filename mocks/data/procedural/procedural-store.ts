import * as z from 'zod/mini'
import type { Asset, Exchange, KnownInterval } from '../../../src/schemas/index.js'
import { INTERVALS, INTERVAL_MS, assetSchema, exchangeSchema } from '../../../src/schemas/index.js'
import { parseDateTime } from '../../../src/contract/index.js'
import { candleModel, type PairModel } from './candle-model.js'
import { FixtureError, checkRecords } from '../fixture-error.js'
import { ceilTo, floorTo } from '../grid.js'
import { normalizeGaps, proceduralSeries, type Gap } from './procedural-series.js'
import { mapKey } from '../map-key.js'
import type { CandleStore, ExchangeSeries } from '../series.js'

const instant = z.string().check(z.refine((s) => parseDateTime(s).ok, 'must be an ISO 8601 datetime'))

/** An exchange of a procedural dataset, with its outages. */
const proceduralExchangeSchema = z.extend(exchangeSchema, {
  /** Periods without data: no candle has its `close_ts` in `[from, to)`. */
  outages: z.optional(z.array(z.object({ from: instant, to: instant }))),
})

/** One pair listed on one exchange of a procedural dataset. */
const proceduralListingSchema = z.object({
  exchange: z.string(),
  base: z.string(),
  quote: z.string(),
  /** When trading starts: the first candle covers the first interval after it. */
  listed: instant,
  price: z.number().check(z.positive()),
  volatility: z.number().check(z.positive()),
  volumePerMinute: z.number().check(z.positive()),
})

/** A dataset defined by rules instead of rows: candles are computed on demand, never stored. */
export const proceduralDatasetSchema = z.object({
  exchanges: z.array(proceduralExchangeSchema),
  assets: z.array(assetSchema),
  listings: z.array(proceduralListingSchema),
})
/** A dataset defined by rules instead of rows. */
export type ProceduralDataset = z.input<typeof proceduralDatasetSchema>

const ms = (text: string): number => (parseDateTime(text) as { ms: number }).ms

/**
 * A store whose candles are a deterministic function of (exchange, pair, interval, close_ts).
 * A closed exchange's history stops at its `closing_date`.
 */
export function proceduralStore(dataset: ProceduralDataset): CandleStore {
  const exchanges = checkRecords('exchanges', dataset.exchanges, proceduralExchangeSchema)
  const assets = checkRecords('assets', dataset.assets, assetSchema)
  const listings = checkRecords('listings', dataset.listings, proceduralListingSchema)
  const tickers = new Set(assets.map((a) => a.ticker))
  const byName = new Map(exchanges.map((e) => [e.name, e]))
  const series = new Map<string, ExchangeSeries[]>()
  listings.forEach((listing, i) => {
    const where = `listings[${i}] (${listing.exchange} ${listing.base}/${listing.quote})`
    const exchange = byName.get(listing.exchange)
    if (!exchange) throw new FixtureError(`${where}: unknown exchange '${listing.exchange}'`)
    for (const ticker of [listing.base, listing.quote]) {
      if (!tickers.has(ticker)) throw new FixtureError(`${where}: unknown asset '${ticker}'`)
    }
    const gaps: Gap[] = normalizeGaps((exchange.outages ?? []).map((o) => ({ from: ms(o.from), to: ms(o.to) })))
    const opened = Math.max(ms(listing.listed), ms(exchange.creation_date))
    const closed = exchange.closing_date === null ? Infinity : ms(exchange.closing_date)
    const model: PairModel = listing
    for (const interval of INTERVALS) {
      const step = INTERVAL_MS[interval]
      const key = mapKey(listing.exchange, interval)
      const list = series.get(key) ?? []
      list.push(
        proceduralSeries({
          exchange: listing.exchange,
          base: listing.base,
          quote: listing.quote,
          interval,
          firstClose: ceilTo(opened, step) + step,
          lastClose: closed === Infinity ? Infinity : floorTo(closed, step),
          gaps,
          candleAt: candleModel(listing.exchange, model, interval),
        }),
      )
      series.set(key, list)
    }
  })
  const catalog: Exchange[] = exchanges.map(({ name, creation_date, closing_date }) => ({ name, creation_date, closing_date }))
  return {
    exchanges: catalog,
    assets: assets as Asset[],
    seriesOf: (exchange: string, interval: KnownInterval) => series.get(mapKey(exchange, interval)) ?? [],
  }
}
