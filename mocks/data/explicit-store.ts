import type { Asset, Exchange, ExchangeCandle, KnownInterval } from '../../src/schemas/index.js'
import { assetSchema, exchangeCandleSchema, exchangeSchema } from '../../src/schemas/index.js'
import { formatTimestamp } from '../../src/contract/index.js'
import { candleProblem, lifetimeProblem } from './candle-rules.js'
import { FixtureError, checkRecords } from './fixture-error.js'
import { lowerBound, upperBound } from './grid.js'
import { mapKey } from './map-key.js'
import type { CandleStore, Countable, ExchangeSeries, Timed } from './series.js'
import { parseTimestamp } from '../../src/contract/close-time.js'

/** A dataset given as rows: what a test builds from its own arrays. */
export interface ExplicitDataset {
  exchanges: Exchange[]
  assets: Asset[]
  candles: ExchangeCandle[]
}

function arraySeries(exchange: string, interval: KnownInterval, base: string, quote: string, rows: Timed<ExchangeCandle>[]): ExchangeSeries & Countable {
  const ts = rows.map((r) => r.t)
  return {
    exchange,
    interval,
    base,
    quote,
    count: (from, to) => Math.max(0, upperBound(ts, to) - lowerBound(ts, from)),
    has: (t) => ts[lowerBound(ts, t)] === t,
    contributesAt: (t) => {
      const i = lowerBound(ts, t)
      return ts[i] === t && rows[i]!.candle.flag !== 'outlier_excluded'
    },
    *ascending(from, to) {
      for (let i = lowerBound(ts, from); i < rows.length && ts[i]! <= to; i++) yield rows[i]!
    },
    *descending(to, from) {
      for (let i = upperBound(ts, to) - 1; i >= 0 && ts[i]! >= from; i--) yield rows[i]!
    },
  }
}

/**
 * A store over explicit arrays. Every record is validated at load: a bad one throws a
 * {@link FixtureError} naming it (`candles[3]: ...`).
 */
export function explicitStore(dataset: ExplicitDataset): CandleStore {
  const exchanges = checkRecords('exchanges', dataset.exchanges, exchangeSchema)
  const assets = checkRecords('assets', dataset.assets, assetSchema)
  const candles = checkRecords('candles', dataset.candles, exchangeCandleSchema)
  const exchangeByName = new Map(exchanges.map((e) => [e.name, e]))
  const tickers = new Set(assets.map((a) => a.ticker))
  const groups = new Map<string, { first: ExchangeCandle; rows: Timed<ExchangeCandle>[] }>()
  candles.forEach((candle, i) => {
    const where = `candles[${i}] (${candle.exchange} ${candle.base}/${candle.quote} ${candle.interval} ${candle.close_ts})`
    const exchange = exchangeByName.get(candle.exchange)
    if (!exchange) throw new FixtureError(`${where}: unknown exchange '${candle.exchange}'`)
    for (const ticker of [candle.base, candle.quote]) {
      if (!tickers.has(ticker)) throw new FixtureError(`${where}: unknown asset '${ticker}'`)
    }
    const problem = candleProblem(candle) ?? lifetimeProblem(candle, exchange)
    if (problem) throw new FixtureError(`${where}: ${problem}`)
    const key = mapKey(candle.exchange, candle.interval, candle.base, candle.quote)
    const group = groups.get(key) ?? { first: candle, rows: [] }
    const t = parseTimestamp(candle.close_ts)
    // The service writes close_ts as YYYY-MM-DDTHH:MM:SSZ whatever the fixture wrote.
    group.rows.push({ t, candle: { ...candle, close_ts: formatTimestamp(t) } })
    groups.set(key, group)
  })
  const series = new Map<string, ExchangeSeries[]>()
  for (const { first, rows } of groups.values()) {
    rows.sort((a, b) => a.t - b.t)
    for (let i = 1; i < rows.length; i++) {
      const c = rows[i]!.candle
      if (rows[i]!.t === rows[i - 1]!.t) throw new FixtureError(`candles: two candles for ${c.exchange} ${c.base}/${c.quote} ${c.interval} at ${c.close_ts}`)
    }
    const interval = first.interval as KnownInterval
    const key = mapKey(first.exchange, interval)
    series.set(key, [...(series.get(key) ?? []), arraySeries(first.exchange, interval, first.base, first.quote, rows)])
  }
  return {
    exchanges,
    assets,
    seriesOf: (exchange, interval) => series.get(mapKey(exchange, interval)) ?? [],
  }
}
