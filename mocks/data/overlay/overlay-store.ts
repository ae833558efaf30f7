import type { AggregatedCandle, Asset, Exchange, ExchangeCandle, KnownInterval } from '../../../src/schemas/index.js'
import { lifetimeOf } from '../candle-rules.js'
import { mapKey } from '../map-key.js'
import { overlaySeries } from './overlay-series.js'
import { emptyEdit, type SeriesEdit } from './series-edit.js'
import type { AggregatedSeries, CandleStore, ExchangeSeries } from '../series.js'

/** The edit of one series, with what names it. */
export interface EditEntry<C> {
  readonly name: string
  readonly interval: KnownInterval
  readonly base: string
  readonly quote: string
  readonly edit: SeriesEdit<C>
}

/**
 * What one service (or session) arranged over the shared immutable store: exchanges and assets put,
 * and an edit per changed series (exchange series by exchange, aggregated ones by method). Nothing
 * of the base is copied; `version` moves on every change so the lookups built over it are rebuilt.
 */
export class OverlayStore {
  version = 0
  #exchanges = new Map<string, Exchange>()
  #assets = new Map<string, Asset>()
  /** By mapKey(exchange, interval), then mapKey(base, quote). */
  #exchangeEdits = new Map<string, Map<string, EditEntry<ExchangeCandle>>>()
  /** By mapKey(method, interval), then mapKey(base, quote). */
  #aggregatedEdits = new Map<string, Map<string, EditEntry<AggregatedCandle>>>()
  #view: CandleStore | undefined

  constructor(readonly base: CandleStore) {}

  /** True while nothing was arranged: the service reads the shared store as it is. */
  get pristine(): boolean {
    return this.#exchanges.size === 0 && this.#assets.size === 0 && this.#exchangeEdits.size === 0 && this.#aggregatedEdits.size === 0
  }

  /** Back to the base store. */
  reset(): void {
    this.#exchanges.clear()
    this.#assets.clear()
    this.#exchangeEdits.clear()
    this.#aggregatedEdits.clear()
    this.changed()
  }

  /** Marks a change: lookups built over the previous version are stale. */
  changed(): void {
    this.version++
    this.#view = undefined
  }

  exchange(name: string): Exchange | undefined {
    return this.#exchanges.get(name) ?? this.base.exchanges.find((e) => e.name === name)
  }

  hasAsset(ticker: string): boolean {
    return this.#assets.has(ticker) || this.base.assets.some((a) => a.ticker === ticker)
  }

  putExchange(exchange: Exchange): void {
    this.#exchanges.set(exchange.name, exchange)
  }

  putAsset(asset: Asset): void {
    this.#assets.set(asset.ticker, asset)
  }

  /** The edit of an exchange series, created empty on first use. */
  exchangeEdit(exchange: string, interval: KnownInterval, base: string, quote: string): SeriesEdit<ExchangeCandle> {
    return editOf(this.#exchangeEdits, exchange, interval, base, quote)
  }

  /** The edit of an aggregated series, created empty on first use. */
  aggregatedEdit(method: string, interval: KnownInterval, base: string, quote: string): SeriesEdit<AggregatedCandle> {
    return editOf(this.#aggregatedEdits, method, interval, base, quote)
  }

  /** The aggregated edits of one method and interval, by mapKey(base, quote). */
  aggregatedEdits(method: string, interval: KnownInterval): ReadonlyMap<string, EditEntry<AggregatedCandle>> | undefined {
    return this.#aggregatedEdits.get(mapKey(method, interval))
  }

  /** The store as this service sees it now (the base itself while pristine). */
  get store(): CandleStore {
    if (this.pristine) return this.base
    this.#view ??= this.#buildView()
    return this.#view
  }

  #buildView(): CandleStore {
    const exchanges = [...this.base.exchanges.filter((e) => !this.#exchanges.has(e.name)), ...this.#exchanges.values()]
    const assets = [...this.base.assets.filter((a) => !this.#assets.has(a.ticker)), ...this.#assets.values()]
    const seriesOf = (exchange: string, interval: KnownInterval): ExchangeSeries[] => {
      const put = this.#exchanges.get(exchange)
      // A put exchange's lifetime clips every series of it, the default data's too.
      const { first, last } = put ? lifetimeOf(put, interval) : { first: -Infinity, last: Infinity }
      const edits = this.#exchangeEdits.get(mapKey(exchange, interval))
      const wrap = (base: ExchangeSeries | undefined, entry: EditEntry<ExchangeCandle> | undefined, identity: Omit<ExchangeSeries, 'ascending' | 'descending'>) =>
        overlaySeries<ExchangeCandle, ExchangeSeries>(identity, base, entry?.edit ?? emptyEdit(), first, last)
      const out: ExchangeSeries[] = []
      for (const s of this.base.seriesOf(exchange, interval)) {
        const entry = edits?.get(mapKey(s.base, s.quote))
        out.push(entry || put ? wrap(s, entry, { exchange, interval, base: s.base, quote: s.quote }) : s)
      }
      for (const [pair, entry] of edits ?? []) {
        if (!out.some((s) => mapKey(s.base, s.quote) === pair)) out.push(wrap(undefined, entry, { exchange, interval, base: entry.base, quote: entry.quote }))
      }
      return out
    }
    return { exchanges, assets, seriesOf }
  }
}

function editOf<C>(edits: Map<string, Map<string, EditEntry<C>>>, name: string, interval: KnownInterval, base: string, quote: string): SeriesEdit<C> {
  const outer = mapKey(name, interval)
  let inner = edits.get(outer)
  if (!inner) edits.set(outer, (inner = new Map()))
  const pair = mapKey(base, quote)
  let entry = inner.get(pair)
  if (!entry) inner.set(pair, (entry = { name, interval, base, quote, edit: emptyEdit() }))
  return entry.edit
}

/** The aggregated series of a service: the derived ones (from its exchange series) under its aggregated edits. */
export function withAggregatedEdits(derived: Map<string, AggregatedSeries>, edits: ReadonlyMap<string, EditEntry<AggregatedCandle>> | undefined): Map<string, AggregatedSeries> {
  if (!edits) return derived
  const out = new Map(derived)
  for (const [pair, entry] of edits) {
    const identity = { method: entry.name, interval: entry.interval, base: entry.base, quote: entry.quote }
    out.set(pair, overlaySeries<AggregatedCandle, AggregatedSeries>(identity, derived.get(pair), entry.edit))
  }
  return out
}
