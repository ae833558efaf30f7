import type { AggregatedCandle, KnownInterval, PairCoverage } from '../../../src/schemas/index.js'
import { formatTimestamp } from '../../../src/contract/index.js'
import { aggregatedSeries } from '../../data/aggregation/aggregated-series.js'
import { mapKey } from '../../data/map-key.js'
import { withAggregatedEdits, type EditEntry } from '../../data/overlay/overlay-store.js'
import { METHOD_IMPLEMENTATIONS } from '../../data/aggregation/method-registry.js'
import { first, type AggregatedSeries, type CandleStore, type ExchangeSeries, type Series } from '../../data/series.js'
import { compare } from './compare.js'

/** Lookups over a store: one exchange series, one aggregated series, coverage entries. */
export class SeriesIndex {
  readonly #exchangeSeries = new Map<string, Map<string, ExchangeSeries>>()
  readonly #aggregated = new Map<string, Map<string, AggregatedSeries>>()

  /** `aggregatedEdits`: what a service arranged on aggregated series, laid over the derived ones. */
  constructor(
    readonly store: CandleStore,
    readonly aggregatedEdits: (method: string, interval: KnownInterval) => ReadonlyMap<string, EditEntry<AggregatedCandle>> | undefined = () => undefined,
  ) {}

  /** The pairs of one exchange at one interval, by {@link mapKey}(base, quote). */
  exchangePairs(exchange: string, interval: KnownInterval): Map<string, ExchangeSeries> {
    const key = mapKey(exchange, interval)
    let found = this.#exchangeSeries.get(key)
    if (!found) {
      found = new Map(this.store.seriesOf(exchange, interval).map((s) => [mapKey(s.base, s.quote), s]))
      this.#exchangeSeries.set(key, found)
    }
    return found
  }

  /** The aggregated series of every pair at one interval under one method, by {@link mapKey}(base, quote). */
  aggregatedPairs(method: string, interval: KnownInterval): Map<string, AggregatedSeries> {
    const key = mapKey(method, interval)
    let found = this.#aggregated.get(key)
    if (!found) {
      const members = new Map<string, ExchangeSeries[]>()
      for (const exchange of this.store.exchanges) {
        for (const [pair, series] of this.exchangePairs(exchange.name, interval)) {
          members.set(pair, [...(members.get(pair) ?? []), series])
        }
      }
      const combine = METHOD_IMPLEMENTATIONS[method]!
      found = withAggregatedEdits(new Map([...members].map(([pair, list]) => [pair, aggregatedSeries(method, combine, list)])), this.aggregatedEdits(method, interval))
      this.#aggregated.set(key, found)
    }
    return found
  }

  /** Coverage of each series with at least one candle up to `now`, sorted by base then quote (contract: catalog-order). */
  coverage(series: Iterable<Series<unknown>>, now: number): PairCoverage[] {
    const entries: PairCoverage[] = []
    for (const s of series) {
      const earliest = first(s.ascending(-Infinity, now))
      if (!earliest) continue
      const latest = first(s.descending(now, -Infinity))!
      entries.push({ base: s.base, quote: s.quote, first_close_ts: formatTimestamp(earliest.t), last_close_ts: formatTimestamp(latest.t) })
    }
    return entries.sort((a, b) => compare(a.base, b.base) || compare(a.quote, b.quote))
  }
}
